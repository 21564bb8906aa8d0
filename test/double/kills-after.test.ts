// SIGKILL of the process group after each terraform command of apply --yes, then a rerun (kills-scenario.ts).
import { killAtEveryCommand } from "./kills-scenario.js";

killAtEveryCommand("after");

// SIGKILL of the process group before each terraform command of apply --yes, then a rerun (kills-scenario.ts).
import { killAtEveryCommand } from "./kills-scenario.js";

killAtEveryCommand("before");

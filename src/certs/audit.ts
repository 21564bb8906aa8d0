// The certificate audit of an estate (spec part B): each (root, workspace) instance's certificates read and
// audited on their own, so two roots that both declare `cloudflare_certificate_pack.main` stay two
// certificates, each finding and inventory entry saying which root and workspace it belongs to. Pure.
import { auditCertificates, timeline, type Certificate } from "../core/certs.js";
import type { InputError } from "../core/model.js";
import { buildEstateReport } from "../estate/report.js";
import type { EstateInstance } from "../estate/load.js";
import type { CertInventoryEntry, CertsReport } from "../render/certs-text.js";
import { certificateBlocksWithoutInstance, readCertificates } from "../terraform/readers/certificates.js";

/** Resource types the certificate audit reads (the report's `resources` lists only these). */
export const CERTIFICATE_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  "cloudflare_zone",
  "cloudflare_certificate_pack",
  "cloudflare_total_tls",
  "cloudflare_custom_hostname",
  "cloudflare_custom_ssl",
]);

/** A certificate with the instance it was read in: the fix needs the root's provider version. */
export interface LocatedCertificate {
  certificate: Certificate;
  root: string;
  workspace: string;
  /** Absolute directory of the root module. */
  rootDir: string;
}

export interface CertsAudit {
  report: CertsReport;
  certificates: LocatedCertificate[];
}

type AuditedInstance = Pick<EstateInstance, "root" | "workspace" | "dir" | "stateFiles" | "ws">;

export function auditEstateCertificates(input: {
  version: string;
  root?: string;
  instances: AuditedInstance[];
  errors: InputError[];
  /** `YYYY-MM-DD`: the day urgencies are computed for. */
  asOf: string;
}): CertsAudit {
  const certificates: LocatedCertificate[] = [];
  const withoutInstance: CertInventoryEntry[] = [];
  const instances = input.instances.map((i) => {
    const resources = i.ws.resources.filter((r) => CERTIFICATE_RESOURCE_TYPES.has(r.type));
    const at = { root: i.root, workspace: i.workspace };
    const certs = readCertificates(resources);
    for (const certificate of certs) certificates.push({ certificate, ...at, rootDir: i.dir });
    for (const { resource: r, kind } of certificateBlocksWithoutInstance(resources)) {
      withoutInstance.push({ address: r.address, kind, file: r.file, line: r.line, zone: null, certificateAuthority: null, inConfig: true, inState: false, noInstances: true, ...at });
    }
    const findings = [...auditCertificates(certs, input.asOf), ...i.ws.findings].map((f) => ({ ...f, ...at }));
    return { instance: { ...i, ws: { ...i.ws, resources } }, findings };
  });
  const report: CertsReport = buildEstateReport({
    version: input.version,
    ...(input.root !== undefined ? { root: input.root } : {}),
    instances: instances.map((i) => i.instance),
    analysis: { zones: [], findings: instances.flatMap((i) => i.findings), instances: [] },
    errors: input.errors,
  });
  report.certs = { asOf: input.asOf, timeline: timeline(input.asOf), certificates: [...certificates.map(inventoryEntry), ...withoutInstance] };
  return { report, certificates };
}

function inventoryEntry({ certificate: c, root, workspace }: LocatedCertificate): CertInventoryEntry {
  return {
    address: c.ref.address,
    kind: c.kind,
    file: c.ref.file,
    line: c.ref.line,
    zone: c.zone,
    certificateAuthority: c.certificateAuthority,
    inConfig: c.ref.inConfig,
    inState: c.ref.inState,
    root,
    workspace,
  };
}

// The shape of the schema data files (schemas/<version>.json): a provider version's schemas as
// Terraform core sees them (protocol 5 blocks and attributes), transcribed from the provider's source
// at a release tag by scripts/sandbox-schemas.mjs. Besides what Terraform sees, each attribute keeps the
// few source facts the double's behaviour needs: ForceNew / RequiresReplace, Default, and a list
// block's "at most one" validator (plugin-framework blocks do not expose max_items to Terraform).

/** A cty type in Terraform's JSON type notation: "string", ["list","string"], ["object",{...}]. */
export type CtyType = string | [string, CtyType | Record<string, CtyType> | CtyType[]];

export interface AttributeSchema {
  type: CtyType;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  /** ForceNew (SDKv2) or RequiresReplace (plugin framework): a change replaces the object. */
  forceNew?: boolean;
  /** Default (SDKv2 `Default`, framework static default): planned when the configuration leaves it null. */
  default?: unknown;
  /** validation.StringInSlice values (SDKv2): the provider rejects any other string at validate time. */
  oneOf?: string[];
  /** A nested attribute (protocol 6, the 5.x provider's attribute syntax): its own attributes; `type` is implied. */
  nested?: { nesting: "single" | "list" | "set" | "map"; attributes: Record<string, AttributeSchema> };
}

export type Nesting = "single" | "list" | "set" | "map" | "group";

export interface BlockTypeSchema {
  nesting: Nesting;
  minItems?: number;
  maxItems?: number;
  /** The source limits the block to one element without telling Terraform (framework validator). */
  atMostOne?: boolean;
  forceNew?: boolean;
  block: BlockSchema;
}

export interface BlockSchema {
  attributes: Record<string, AttributeSchema>;
  blocks: Record<string, BlockTypeSchema>;
}

export interface ResourceSchema {
  /** Schema version recorded in state (SchemaVersion / Version). */
  version: number;
  /** Which SDK the real provider implements the type with: "sdkv2" or "framework". */
  sdk: "sdkv2" | "framework";
  /** The source file the schema was transcribed from. */
  source: string;
  block: BlockSchema;
}

export interface ProviderSchemaFile {
  /** The provider version served (e.g. "3.35.0"). */
  version: string;
  repository: string;
  tag: string;
  /** The plugin protocol the real provider speaks: 5 (3.x, 4.x; the default) or 6 (5.x). */
  protocol?: 5 | 6;
  provider: BlockSchema;
  resources: Record<string, ResourceSchema>;
  dataSources: Record<string, ResourceSchema>;
}

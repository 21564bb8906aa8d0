// testdata/estate: the states its roots and workspaces keep, as the local backend lays them out (relative
// to testdata/estate), shared by the estate tests.
export const ESTATE_STATES = [
  "live/prod/terraform.tfstate",
  "live/staging/terraform.tfstate.d/eu/terraform.tfstate",
  "live/staging/terraform.tfstate.d/us/terraform.tfstate",
  "live/edge/terraform.tfstate",
  "live/migrated/terraform.tfstate",
] as const;

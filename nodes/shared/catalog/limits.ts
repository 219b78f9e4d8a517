/** The API's limits that the nodes check or work within (docs/reference/service.md, Limits). */

/** Blocks one `chain/getblock` range may span. */
export const MAX_BLOCK_RANGE = 10;

/** The API's limits that the nodes check or work within (spec, Limits). */

/** Blocks one `chain/getblock` range may span. */
export const MAX_BLOCK_RANGE = 10;

import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { OperationSpec, PaginationSpec } from '../../shared/catalog/types';
import type { ItemParameters } from '../helpers/parameters';
import { buildRequest } from '../helpers/request';
import { expandApiRequest } from '../../shared/transport';
import { toRecords } from './records';

/** The cursor of the page after this one, or undefined at the end. */
function nextCursor(
	pagination: PaginationSpec,
	page: IDataObject,
	current: string | undefined,
): string | undefined {
	if (pagination.style === 'cursor') {
		const next = page[pagination.nextField ?? 'nextPageToken'];
		if (next === undefined || next === null || next === '' || next === 'null') return undefined;
		return String(next);
	}
	const currentPage = Number(current ?? 1);
	const totalPages = Number(page[pagination.totalPagesField ?? 'totalPages'] ?? currentPage);
	return currentPage < totalPages ? String(currentPage + 1) : undefined;
}

/** A paged list: one item per record, following the cursor for Return All, else up to Limit. */
export async function execute(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	itemIndex: number,
): Promise<IDataObject[]> {
	const pagination = operation.pagination as PaginationSpec;
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const request = buildRequest(operation, parameters);
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let cursor = request.qs?.[pagination.requestParam] as string | undefined;

	while (records.length < limit) {
		if (cursor !== undefined) request.qs = { ...request.qs, [pagination.requestParam]: cursor };
		const page = (await expandApiRequest.call(this, request, itemIndex)) as IDataObject;
		const pageRecords = page?.[pagination.itemsField];
		if (!Array.isArray(pageRecords)) {
			throw new NodeApiError(this.getNode(), (page ?? {}) as JsonObject, {
				message: `The response has no list "${pagination.itemsField}"`,
				itemIndex,
			});
		}
		records.push(...toRecords(pageRecords));
		const next = nextCursor(pagination, page, cursor);
		// A cursor that comes back again would loop forever; the API has no more pages then.
		if (next === undefined || seen.has(next)) break;
		seen.add(next);
		cursor = next;
	}
	return records.slice(0, limit);
}

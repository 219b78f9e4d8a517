import type { IDataObject } from 'n8n-workflow';

function isRecord(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** n8n items from an API payload: an array gives one item per element, an object one item. */
export function toRecords(data: unknown): IDataObject[] {
	if (Array.isArray(data))
		return data.map((entry) => (isRecord(entry) ? entry : { value: entry as IDataObject[string] }));
	if (isRecord(data)) return [data];
	return [{ data: data as IDataObject[string] }];
}

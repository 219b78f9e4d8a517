/** Replaces every occurrence of a secret (as given and URL-encoded) with a fixed mask. */
export function redact(text: string, secret: string): string {
	if (!secret) return text;
	return [secret, encodeURIComponent(secret)].reduce(
		(result, form) => result.split(form).join('***'),
		text,
	);
}

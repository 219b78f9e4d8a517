/** Characters that follow one another in the words of a set; `$` marks where a word ends. */
type Trie = Map<string, Trie>;

const END = '$';

function trieOf(words: string[]): Trie {
	const root: Trie = new Map();
	for (const word of words) {
		let node = root;
		for (const character of [...word, END]) {
			if (!node.has(character)) node.set(character, new Map());
			node = node.get(character)!;
		}
	}
	return root;
}

const escape = (character: string) => character.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');

/**
 * The pattern of what may follow a trie node: its branches as alternatives, branches followed by the
 * same pattern joined into one character class, and optional when a word ends here.
 */
function patternOf(node: Trie): string {
	const byTail = new Map<string, string[]>();
	for (const [character, next] of node) {
		if (character === END) continue;
		const tail = patternOf(next);
		byTail.set(tail, [...(byTail.get(tail) ?? []), escape(character)]);
	}
	const alternatives = [...byTail].map(
		([tail, characters]) =>
			(characters.length === 1 ? characters[0] : `[${characters.sort().join('')}]`) + tail,
	);
	if (!alternatives.length) return '';
	const ends = node.has(END);
	if (alternatives.length === 1 && !ends) return alternatives[0];
	const atom = alternatives.length === 1 && /^(.|\[[^\]]*\])$/.test(alternatives[0]);
	const group = atom ? alternatives[0] : `(${alternatives.join('|')})`;
	return ends ? `${group}?` : group;
}

/**
 * A regular expression (source) that matches exactly the given words, written compactly by sharing
 * their prefixes and joining branches that end alike: `^(90[01]|1[05]0[01])$` for 900, 901, 1000, 1001, 1500, 1501.
 */
export function exactPattern(words: string[]): string {
	return `^${patternOf(trieOf(words))}$`;
}

/**
 * A long email is put into its frame part by part, one task each, so that no
 * task lays out more than a part (laying out 100 KB of table at once took
 * 60 ms here, and keys wait meanwhile). A part is a run of the body's
 * top-level nodes; a table too heavy for one part is cut between its rows into
 * tables with the same attributes (and column groups), which lay out alike
 * unless their columns size to their content.
 */

/** About what a task can lay out within a few milliseconds: text characters, and 40 for an element. */
export const CHUNK_WEIGHT = 12_000;

/** The nodes come from the frame's document: another realm, where `instanceof Element` is false. */
const isElement = (node: Node): node is Element => node.nodeType === 1;

/** What laying a node out costs, roughly: its text, and its elements. */
function weight(node: Node): number {
  const text = node.textContent?.length ?? 0;
  return isElement(node) ? text + 40 * (node.getElementsByTagName('*').length + 1) : text;
}

const ROW_GROUPS = new Set(['THEAD', 'TBODY', 'TFOOT']);

/** Cuts a table between rows into tables of about `budget` each. Moves the nodes; the table is left empty. */
function cutTable(table: Element, budget: number): Element[] {
  const columns = [...table.children].filter((child) => child.tagName === 'COLGROUP');
  const pieces: Element[] = [];
  let piece = table.cloneNode(false) as Element;
  let load = 0;
  pieces.push(piece);
  for (const part of [...table.childNodes]) {
    if (!isElement(part) || !ROW_GROUPS.has(part.tagName)) {
      piece.appendChild(part);
      load += weight(part);
      continue;
    }
    let section: Element | null = null;
    for (const row of [...part.childNodes]) {
      const rowWeight = weight(row);
      if (load > 0 && load + rowWeight > budget && isElement(row)) {
        piece = table.cloneNode(false) as Element;
        for (const group of columns) piece.appendChild(group.cloneNode(true));
        pieces.push(piece);
        section = null;
        load = 0;
      }
      if (!section) {
        section = part.cloneNode(false) as Element;
        piece.appendChild(section);
      }
      section.appendChild(row);
      load += rowWeight;
    }
  }
  return pieces;
}

/** The nodes in parts of about `budget` each, in order. */
export function layoutChunks(nodes: Node[], budget = CHUNK_WEIGHT): Node[][] {
  const chunks: Node[][] = [];
  let current: Node[] = [];
  let load = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(current);
    current = [];
    load = 0;
  };
  for (const node of nodes) {
    const nodeWeight = weight(node);
    if (nodeWeight > budget && isElement(node) && node.tagName === 'TABLE') {
      flush();
      for (const piece of cutTable(node, budget)) chunks.push([piece]);
      continue;
    }
    if (load > 0 && load + nodeWeight > budget) flush();
    current.push(node);
    load += nodeWeight;
  }
  flush();
  return chunks;
}

/**
 * A plain body (the text view, the raw source) as pieces the reader lays out
 * one at a time: whole lines gathered up to PIECE_CHARS, and a line longer
 * than that cut into pieces of its own. Each piece is a block the browser may
 * skip while off screen (content-visibility), so no frame lays out more than a
 * screen's worth: one unbroken 100 KB line of Thai took 1.5 s to lay out at
 * once. Pure: joined with newlines between whole-line pieces, and with nothing
 * between the pieces of one cut line, they are the text again.
 */

/** What one piece holds at most: a few milliseconds of layout in the slowest script measured (Thai, ~15 µs a character). */
export const PIECE_CHARS = 1000;

export interface TextPiece {
  text: string;
  /** It goes on the line the previous piece was on (a long line, cut). */
  continues: boolean;
}

export function textPieces(text: string, limit = PIECE_CHARS): TextPiece[] {
  const pieces: TextPiece[] = [];
  let gathered: string[] = [];
  let size = 0;
  const flush = () => {
    if (gathered.length === 0) return;
    pieces.push({ text: gathered.join('\n'), continues: false });
    gathered = [];
    size = 0;
  };
  for (const line of text.split('\n')) {
    if (line.length > limit) {
      flush();
      for (let at = 0; at < line.length; at += limit) pieces.push({ text: line.slice(at, at + limit), continues: at > 0 });
      continue;
    }
    if (size + line.length + 1 > limit && gathered.length > 0) flush();
    gathered.push(line);
    size += line.length + 1;
  }
  flush();
  return pieces;
}

/** The text the pieces stand for (what a test checks them against). */
export function joinPieces(pieces: TextPiece[]): string {
  return pieces.reduce((text, piece, index) => (index === 0 ? piece.text : text + (piece.continues ? '' : '\n') + piece.text), '');
}

import { useEffect, useMemo, useState } from 'react';
import { textPieces } from '../../../../shared/domain/text-pieces.ts';

/** Pieces put in at first, and per task after (about a screen of the slowest script's layout each). */
const FIRST_PIECES = 2;
const STEP_PIECES = 2;
/** Past this many, the rest lie beyond what the browser lays out ahead of the screen: they go in together. */
const NEAR_PIECES = 10;

/**
 * A plain body (text or raw) in pieces the browser lays out only as they come
 * into view (content-visibility: auto), so no frame lays out more than a
 * screen's worth however long a line is (text-pieces.ts). The pieces near the
 * top go in a couple per task, since the browser lays out what lies near the
 * screen at once (a screen of Thai is some 40 ms); the far ones all together,
 * unlaid. Each whole-line piece keeps its newline: the text is what it was.
 */
export function PlainText({ text, className }: { text: string; className: string }) {
  const pieces = useMemo(() => textPieces(text), [text]);
  const [shown, setShown] = useState({ pieces, count: FIRST_PIECES });
  // A new body starts again from its top.
  const count = shown.pieces === pieces ? shown.count : FIRST_PIECES;
  useEffect(() => {
    if (count >= pieces.length) return;
    const next = setTimeout(() => setShown({ pieces, count: count < NEAR_PIECES ? count + STEP_PIECES : pieces.length }), 0);
    return () => clearTimeout(next);
  }, [count, pieces]);
  return (
    <pre className={className}>
      {pieces.slice(0, count).map((piece, index) => (
        <span key={index} className="piece">
          {piece.text}
          {pieces[index + 1] && !pieces[index + 1]!.continues ? '\n' : ''}
        </span>
      ))}
    </pre>
  );
}

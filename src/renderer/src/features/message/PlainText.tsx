import { useMemo } from 'react';
import { textPieces } from '../../../../shared/domain/text-pieces.ts';

/**
 * A plain body (text or raw) in pieces the browser lays out only as they come
 * into view (content-visibility: auto), so no frame lays out more than a
 * screen's worth however long a line is (text-pieces.ts). Each whole-line
 * piece keeps its newline, so the text is what it was, to the character.
 */
export function PlainText({ text, className }: { text: string; className: string }) {
  const pieces = useMemo(() => textPieces(text), [text]);
  return (
    <pre className={className}>
      {pieces.map((piece, index) => (
        <span key={index} className="piece">
          {piece.text}
          {pieces[index + 1] && !pieces[index + 1]!.continues ? '\n' : ''}
        </span>
      ))}
    </pre>
  );
}

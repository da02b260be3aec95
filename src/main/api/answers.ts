import type { z } from 'zod';
import { BODY_FORMATS, type BodyFormat } from '../../shared/domain/email.ts';
import { ServiceError } from './errors.ts';
import type { RawResponse } from './http.ts';

/** Reading what a server answered: JSON held to a schema, a body decoded in its charset. Every failure is one bad-response sentence. */

export function parseValue(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ServiceError('bad-response', 'The server answered with something that is not JSON.');
  }
}

export function validate<S extends z.ZodType>(value: unknown, schema: S, at: (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? `${[...at, ...issue.path].join('.') || 'answer'}: ${issue.message}` : 'unknown';
    throw new ServiceError('bad-response', `The server's answer is not in the expected shape (${where}).`);
  }
  return result.data;
}

export function parseJson<S extends z.ZodType>(bytes: Buffer, schema: S): z.output<S> {
  return validate(parseValue(bytes), schema);
}

/** A body's text in the charset the server named; a head cut inside a character drops that character. Raw is read as bytes (client.rawMessage). */
export function decodeBody(response: RawResponse, format: BodyFormat): string {
  const contentType = response.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (contentType.includes('json')) {
    throw new ServiceError('bad-response', `Asked for ${BODY_FORMATS[format]}, the server answered JSON.`);
  }
  const charset = /charset="?([\w-]+)/i.exec(response.contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(response.bytes, { stream: response.wholeBytes !== undefined });
  } catch {
    return response.bytes.toString('utf8');
  }
}

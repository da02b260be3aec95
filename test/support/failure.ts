import { expect } from 'vitest';
import { ServiceError } from '../../src/main/api/errors.ts';

/** The ServiceError a promise rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a failure');
}

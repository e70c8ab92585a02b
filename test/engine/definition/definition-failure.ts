import { expect } from 'chai';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';

/** The message of the `DefinitionError` a normalisation step throws; fails the test when it throws none. */
export function definitionFailure(step: () => unknown): string {
  try {
    step();
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error('the definition was accepted');
}

/** A definition in `resources/` that the engine cannot serve; stops start-up. */
export class DefinitionError extends Error {
  constructor({ family, key, message }: { family: string; key: string; message: string }) {
    super(`resources/${family}.ts: ${key}: ${message}`);
    this.name = 'DefinitionError';
  }
}

export function validateBrepText(_bytes: Uint8Array, _name: string): void {}

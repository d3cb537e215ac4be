export function validateIges(_bytes: Uint8Array, _name: string): void {}

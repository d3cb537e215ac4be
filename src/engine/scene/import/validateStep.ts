export function validateStep(_bytes: Uint8Array, _name: string): void {}

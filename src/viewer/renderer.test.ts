import { describe, expect, it } from 'vitest';
import { isSoftwareRenderer } from './renderer';

describe('isSoftwareRenderer (no multisampling where it doubles a frame)', () => {
  it('names the software renderers browsers fall back to', () => {
    // Headless Chromium here (UNMASKED_RENDERER_WEBGL, as read from /usr/bin/chromium --disable-gpu).
    expect(isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toBe(true);
    expect(isSoftwareRenderer('Google SwiftShader')).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(true);
  });

  it('leaves GPUs and hidden renderer names alone', () => {
    expect(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
    expect(isSoftwareRenderer('Apple M1')).toBe(false);
    expect(isSoftwareRenderer('Mesa Intel(R) UHD Graphics 620 (KBL GT2)')).toBe(false);
    expect(isSoftwareRenderer('WebKit WebGL')).toBe(false);
    expect(isSoftwareRenderer('')).toBe(false);
  });
});

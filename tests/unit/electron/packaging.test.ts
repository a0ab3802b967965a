// Packaging inputs: the icon files match the shapes they are drawn from, and electron-builder.yml
// passes electron-builder's own schema with the fuses we rely on.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ICON_SHAPES, iconPng, iconSvg } from '../../../electron/main/app-icon.js';

const root = path.resolve(import.meta.dirname, '../../..');

function decodePng(png: Buffer): { width: number; height: number; pixel(x: number, y: number): number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const rows = zlib.inflateSync(Buffer.concat(idat));
  expect(rows.length).toBe((width * 4 + 1) * height);
  return {
    width,
    height,
    pixel: (x, y) => [...rows.subarray(y * (width * 4 + 1) + 1 + x * 4, y * (width * 4 + 1) + 1 + x * 4 + 4)],
  };
}

describe('app icon', () => {
  it('renders a valid RGBA PNG: transparent corners, opaque tile, white folder, green dot', () => {
    const image = decodePng(iconPng(64));
    expect([image.width, image.height]).toEqual([64, 64]);
    expect(image.pixel(0, 0)[3]).toBe(0);
    expect(image.pixel(32, 4)).toEqual([0x1d, 0x4e, 0xd8, 255]);
    expect(image.pixel(24, 36)).toEqual([255, 255, 255, 255]);
    expect(image.pixel(48, 46)).toEqual([0x22, 0xc5, 0x5e, 255]);
  });

  it('build/icons holds exactly what scripts/make-icons.ts draws (run it after changing the shapes)', () => {
    expect(fs.readFileSync(path.join(root, 'build/icons/icon.svg'), 'utf8')).toBe(iconSvg());
    expect(fs.readFileSync(path.join(root, 'build/icons/512x512.png')).equals(iconPng(512))).toBe(true);
    expect(iconSvg().match(/<(rect|circle) /g)).toHaveLength(ICON_SHAPES.length);
  });
});

describe('electron-builder.yml', () => {
  const requireFromBuilder = createRequire(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
  const yaml = requireFromBuilder('js-yaml') as { load(text: string): unknown };
  const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

  it("passes electron-builder's schema", async () => {
    const { validateConfiguration } = requireFromBuilder('./out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = requireFromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and flips the security fuses', () => {
    expect(config).toMatchObject({ appId: 'dev.mcproots.manager', productName: 'MCP Roots Manager', asar: true });
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds AppImage + deb, dmg and nsis from icons that exist', () => {
    expect(config).toMatchObject({
      linux: { target: ['AppImage', 'deb'] },
      mac: { target: 'dmg' },
      win: { target: 'nsis' },
    });
    for (const platform of ['linux', 'mac', 'win']) {
      const icon = (config[platform] as { icon: string }).icon;
      expect(fs.existsSync(path.join(root, icon)), `${platform} icon ${icon}`).toBe(true);
    }
  });

  it('ships the compiled app, package.json and nothing from the sources', () => {
    expect(config.files).toEqual(['dist/**/*', '!dist/**/*.map', 'package.json']);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main.startsWith('dist/')).toBe(true);
  });
});

// Packaging inputs: the icon files match the shapes they are drawn from, and electron-builder.yml
// passes electron-builder's own schema with the fuses, names, signing and update plan we rely on.
// What the packed result holds is checked by the pack smoke test (tests/pack/pack-smoke.test.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../electron/host/registry/config-dir.js';
import { LINUX_EXECUTABLE_NAME } from '../../../electron/import/proxy-launcher.js';
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
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    main: string;
    productName: string;
    desktopName: string;
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };

  it("passes electron-builder's schema", async () => {
    const { validateConfiguration } = requireFromBuilder('./out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = requireFromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and flips the security fuses, re-signing ad hoc after the flip', () => {
    expect(config).toMatchObject({ appId: 'dev.mcproots.manager', productName: PRODUCT_NAME, asar: true });
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
      resetAdHocDarwinSignature: true,
    });
  });

  it('builds the .deb, dmg + zip and nsis from icons that exist, every artifact named without spaces', () => {
    expect(config).toMatchObject({
      linux: { target: ['deb'] },
      mac: { target: ['dmg', 'zip'] },
      win: { target: 'nsis' },
    });
    for (const platform of ['linux', 'mac', 'win']) {
      const icon = (config[platform] as { icon: string }).icon;
      expect(fs.existsSync(path.join(root, icon)), `${platform} icon ${icon}`).toBe(true);
    }
    for (const pattern of [config.artifactName, (config.deb as Record<string, string>).artifactName, (config.nsis as Record<string, string>).artifactName]) {
      expect(pattern).toMatch(/^\$\{name\}[^ ]*\.\$\{ext\}$/);
    }
  });

  it("names the Linux executable and desktop entry as the launcher and Electron's window app_id expect", () => {
    expect(config.linux).toMatchObject({ executableName: LINUX_EXECUTABLE_NAME, syncDesktopName: true });
    expect(pkg.desktopName).toBe(`${LINUX_EXECUTABLE_NAME}.desktop`);
    expect(pkg.productName).toBe(PRODUCT_NAME);
  });

  it('signs and notarizes macOS only from environment variables, with the hardened runtime and JIT as the one entitlement', () => {
    const mac = config.mac as Record<string, unknown>;
    expect(mac).toMatchObject({ hardenedRuntime: true, notarize: true, entitlements: 'build/entitlements.mac.plist', entitlementsInherit: 'build/entitlements.mac.plist' });
    // No identity, certificate or password in the file: CSC_LINK, APPLE_API_KEY… come from the environment.
    expect(mac).not.toHaveProperty('identity');
    expect(JSON.stringify(config)).not.toMatch(/password|CSC_|APPLE_|certificateFile/i);
    const plist = fs.readFileSync(path.join(root, 'build/entitlements.mac.plist'), 'utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1])).toEqual(['com.apple.security.cs.allow-jit']);
    expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
  });

  it('plans updates with a publish config that points nowhere until a release channel exists', () => {
    expect(config.publish).toEqual({ provider: 'generic', url: expect.stringMatching(/^https:\/\/[^/]+\.invalid\//), channel: 'latest' });
    expect(pkg.scripts.dist).toContain('--publish never');
  });

  it('ships the compiled app and package.json, without maps, declarations or sources, from a cleaned dist/', () => {
    expect(config.files).toEqual([
      'dist/**/*',
      '!**/*.map',
      '!**/*.{d.ts,d.mts,d.cts}',
      '!**/node_modules/**/*.{ts,mts,cts,md,markdown}',
      '!**/node_modules/zod/src/**',
      'package.json',
    ]);
    expect(pkg.main.startsWith('dist/')).toBe(true);
    expect(pkg.scripts.dist?.startsWith('npm run build:clean')).toBe(true);
    expect(pkg.scripts['build:clean']).toContain('scripts/clean-dist.js');
    // Bundled into dist/renderer by Vite: never a runtime dependency of the package.
    expect(Object.keys(pkg.dependencies)).not.toContain('react');
    expect(Object.keys(pkg.dependencies)).not.toContain('react-dom');
  });
});

// The seccomp filter, rule by rule, run in a small classic-BPF interpreter on both architectures
// (the hostile-server tests run the real one in the kernel, on this machine's architecture).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_ARCH,
  BLOCKED_CALLS,
  encodeProgram,
  retErrno,
  SECCOMP_RET_ALLOW,
  SYSCALL_NUMBERS,
  seccompArch,
  seccompFilter,
  seccompProgram,
  type Instruction,
  type SeccompArch,
} from '../../../../electron/host/sandbox/seccomp-filter.js';

/** Runs a filter on one system call: what the kernel would do with it. Only the opcodes the filter uses. */
function run(program: readonly Instruction[], call: { arch: number; nr: number; args?: number[] }): number {
  const word = (offset: number): number => {
    if (offset === 0) return call.nr;
    if (offset === 4) return call.arch;
    const arg = (offset - 16) / 8;
    if (Number.isInteger(arg) && arg >= 0 && arg < 6) return (call.args?.[arg] ?? 0) >>> 0;
    throw new Error(`load from offset ${offset}`);
  };
  let acc = 0;
  for (let pc = 0; pc < program.length; ) {
    const { code, jt, jf, k } = program[pc] as Instruction;
    if (code === 0x20) {
      acc = word(k);
      pc++;
    } else if (code === 0x15) pc += 1 + (acc === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (acc >= k ? jt : jf);
    else if (code === 0x54) {
      acc = (acc & k) >>> 0;
      pc++;
    }
    else if (code === 0x06) return k;
    else throw new Error(`opcode ${code}`);
  }
  throw new Error('fell off the end');
}

const NR: Record<SeccompArch, Record<string, number>> = {
  x64: { keyctl: 250, add_key: 248, fsopen: 430, mount: 165, ptrace: 101, io_uring_setup: 425, ioctl: 16, socket: 41, socketpair: 53, read: 0, openat: 257, clone3: 435 },
  arm64: { keyctl: 219, add_key: 217, fsopen: 430, mount: 40, ptrace: 117, io_uring_setup: 425, ioctl: 29, socket: 198, socketpair: 199, read: 63, openat: 56, clone3: 435 },
};
const EPERM = retErrno(1);
const ENOSYS = retErrno(38);

for (const arch of ['x64', 'arm64'] as const) {
  describe(`the seccomp filter on ${arch}`, () => {
    const program = seccompProgram(arch, { denyUnixSockets: true });
    const call = (name: string, args?: number[]) => run(program, { arch: AUDIT_ARCH[arch], nr: NR[arch][name] as number, args });

    it('allows ordinary calls', () => {
      for (const name of ['read', 'openat', 'clone3']) expect(call(name), name).toBe(SECCOMP_RET_ALLOW);
    });

    it('refuses the keyrings and the new mount API with ENOSYS (callers fall back as on an old kernel), mount and ptrace with EPERM', () => {
      expect(call('keyctl')).toBe(ENOSYS);
      expect(call('add_key')).toBe(ENOSYS);
      expect(call('fsopen')).toBe(ENOSYS);
      expect(call('io_uring_setup')).toBe(ENOSYS);
      expect(call('mount')).toBe(EPERM);
      expect(call('ptrace')).toBe(EPERM);
    });

    it('refuses socket(AF_UNIX) whatever the other arguments, and allows other families', () => {
      expect(call('socket', [1, 1, 0])).toBe(EPERM);
      expect(call('socket', [1, 0x80801, 0])).toBe(EPERM);
      expect(call('socket', [2, 1, 0])).toBe(SECCOMP_RET_ALLOW);
      expect(call('socket', [10, 2, 0])).toBe(SECCOMP_RET_ALLOW);
    });

    it('allows stream and seqpacket pairs, with any flags, and refuses datagram (and raw, a datagram to AF_UNIX) pairs', () => {
      const SOCK_NONBLOCK = 0o4000;
      const SOCK_CLOEXEC = 0o2000000;
      for (const type of [1, 5, 1 | SOCK_CLOEXEC, 5 | SOCK_CLOEXEC | SOCK_NONBLOCK]) expect(call('socketpair', [1, type, 0]), `type ${type}`).toBe(SECCOMP_RET_ALLOW);
      for (const type of [2, 3, 2 | SOCK_CLOEXEC, 3 | SOCK_NONBLOCK, 0, 10]) expect(call('socketpair', [1, type, 0]), `type ${type}`).toBe(EPERM);
      // The rule's own loads leave no mark on the rules after it.
      expect(call('socket', [1, 1, 0])).toBe(EPERM);
      expect(call('read')).toBe(SECCOMP_RET_ALLOW);
    });

    it('refuses netfilter’s netlink socket always, and leaves the other netlink families (getifaddrs uses route)', () => {
      const open = seccompProgram(arch, { denyUnixSockets: false });
      for (const filter of [program, open]) {
        expect(run(filter, { arch: AUDIT_ARCH[arch], nr: NR[arch].socket as number, args: [16, 3, 12] })).toBe(EPERM);
        expect(run(filter, { arch: AUDIT_ARCH[arch], nr: NR[arch].socket as number, args: [16, 0x80003, 12] })).toBe(EPERM);
        expect(run(filter, { arch: AUDIT_ARCH[arch], nr: NR[arch].socket as number, args: [16, 3, 0] })).toBe(SECCOMP_RET_ALLOW);
        expect(run(filter, { arch: AUDIT_ARCH[arch], nr: NR[arch].socket as number, args: [2, 1, 12] })).toBe(SECCOMP_RET_ALLOW);
      }
    });

    it('allows Unix sockets where a server is exempted (a browser with a network namespace of its own)', () => {
      const open = seccompProgram(arch, { denyUnixSockets: false });
      expect(run(open, { arch: AUDIT_ARCH[arch], nr: NR[arch].socket as number, args: [1, 1, 0] })).toBe(SECCOMP_RET_ALLOW);
      expect(run(open, { arch: AUDIT_ARCH[arch], nr: NR[arch].socketpair as number, args: [1, 2, 0] })).toBe(SECCOMP_RET_ALLOW);
      expect(run(open, { arch: AUDIT_ARCH[arch], nr: NR[arch].keyctl as number })).toBe(ENOSYS);
    });

    it('refuses ioctl TIOCSTI and TIOCLINUX, allows other requests', () => {
      expect(call('ioctl', [0, 0x5412])).toBe(EPERM);
      expect(call('ioctl', [0, 0x541c])).toBe(EPERM);
      expect(call('ioctl', [0, 0x5401])).toBe(SECCOMP_RET_ALLOW);
    });

    it('refuses every call of another architecture (their numbers differ)', () => {
      const other = arch === 'x64' ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
      expect(run(program, { arch: other, nr: NR[arch].read as number })).toBe(ENOSYS);
      expect(run(program, { arch: 0x40000003, nr: 0 })).toBe(ENOSYS); // i386
    });

    it('refuses every blocked call with its errno, and every jump stays inside the program', () => {
      for (const blocked of BLOCKED_CALLS) {
        expect(run(program, { arch: AUDIT_ARCH[arch], nr: SYSCALL_NUMBERS[arch][blocked.name] as number }), blocked.name).toBe(retErrno(blocked.errno));
      }
      program.forEach((instruction, pc) => {
        if (instruction.code === 0x15 || instruction.code === 0x35) expect(pc + 1 + Math.max(instruction.jt, instruction.jf)).toBeLessThan(program.length);
      });
    });

    // The numbers are the filter's one fact about each kernel: checked against the system's own
    // headers where they are installed (x86-64's table; arm64 uses the generic one).
    const header = arch === 'x64' ? '/usr/include/x86_64-linux-gnu/asm/unistd_64.h' : '/usr/include/asm-generic/unistd.h';
    it.runIf(fs.existsSync(header))(`matches ${header} for every call it names`, () => {
      const text = fs.readFileSync(header, 'utf8');
      for (const [name, nr] of Object.entries(SYSCALL_NUMBERS[arch])) {
        const found = new RegExp(`#define __NR(?:3264)?_${name}\\s+(\\d+)`).exec(text)?.[1];
        expect(Number(found), name).toBe(nr);
      }
    });
  });
}

describe('the x32 ABI on x86-64', () => {
  it('is refused: its calls carry the x32 bit, and a rule for the 64-bit number would not see them', () => {
    const program = seccompProgram('x64', { denyUnixSockets: true });
    expect(run(program, { arch: AUDIT_ARCH.x64, nr: 0x40000000 + 250 })).toBe(ENOSYS);
    expect(run(program, { arch: AUDIT_ARCH.x64, nr: 0x40000000 })).toBe(ENOSYS);
  });
});

describe('encoding', () => {
  it('writes struct sock_filter little-endian, 8 bytes an instruction', () => {
    const buffer = encodeProgram([{ code: 0x15, jt: 1, jf: 2, k: 0xc000003e }]);
    expect([...buffer]).toEqual([0x15, 0x00, 0x01, 0x02, 0x3e, 0x00, 0x00, 0xc0]);
  });

  it('is made for x86-64 and arm64 only; elsewhere there is no filter (and the badge says so)', () => {
    expect(seccompArch('x64')).toBe('x64');
    expect(seccompArch('arm64')).toBe('arm64');
    expect(seccompArch('ia32')).toBeUndefined();
    expect(seccompFilter({ denyUnixSockets: true }, 'riscv64')).toBeUndefined();
    expect(seccompFilter({ denyUnixSockets: true }, 'x64')?.length).toBe(seccompProgram('x64', { denyUnixSockets: true }).length * 8);
  });
});

// The seccomp filter every confined server runs under, as classic BPF that bwrap loads with
// `--seccomp FD` just before it execs the server. Written here as data, not with libseccomp: the
// program is ~60 instructions, a native addon or a helper binary would have to be built for every
// architecture and shipped, and a pure function of (architecture, rules) can be tested rule by rule
// (tests/unit/host/sandbox/seccomp-filter.test.ts runs the BPF in a small interpreter, and the
// hostile-server tests run it in the kernel).
//
// What it closes, and why (the kernel state that user and mount namespaces do not cover):
// - the keyrings (keyctl, add_key, request_key): the session keyring is not namespaced, and
//   --new-session is only setsid(); a server could read keys the person's session holds;
// - the new mount API (fsopen … mount_setattr) and mount/umount2/pivot_root: no server needs them,
//   and they are the way round a read-only bind;
// - kernel-wide or cross-process reach: perf_event_open, userfaultfd (a race amplifier), ptrace and
//   process_vm_readv/writev, bpf, kexec, modules, acct, swap, reboot, syslog, quotactl,
//   open_by_handle_at (the "shocker" escape as root), io_uring (its operations bypass this filter);
// - ioctl TIOCSTI / TIOCLINUX: typing into a terminal (Flatpak's rule; we also setsid);
// - socket(AF_UNIX): Unix sockets reach outside the file tree (abstract names: X11, D-Bus, the
//   Secret Service) even with the network shared. socketpair() stays allowed for stream and
//   seqpacket pairs: Node, Python and Chromium talk to their own children over them, and a
//   connected stream or seqpacket socket cannot be pointed anywhere else (EISCONN; a seqpacket
//   send ignores an address). A datagram pair can: sendto() with an abstract name, or connect()
//   again, reaches a host listener, so socketpair() of any other type (SOCK_DGRAM, and SOCK_RAW,
//   which AF_UNIX makes a datagram socket) is refused where socket(AF_UNIX) is (issue #27).
// - socket(AF_NETLINK, …, NETLINK_NETFILTER): no server configures a firewall, and where a server is
//   allowed sandboxes of its own (user namespaces, for a browser) it would hold CAP_NET_ADMIN in a
//   network namespace of its own, from which nf_tables has been the way into the kernel of many exploits.
// Other architectures' system calls (i386 via int 0x80, x32) are refused whole: their numbers differ,
// so a rule written for x86-64 would not catch them.
//
// Anchors: Flatpak (common/flatpak-run.c setup_seccomp), Docker's default profile, Anthropic's
// sandbox-runtime (AF_UNIX via a vendored BPF blob).

export type SeccompArch = 'x64' | 'arm64';

/** What a blocked call returns; ENOSYS where a library should fall back as on an older kernel. */
const EPERM = 1;
const ENOSYS = 38;

interface BlockedCall {
  name: string;
  errno: number;
}

const blocked = (errno: number, ...names: string[]): BlockedCall[] => names.map((name) => ({ name, errno }));

/** Refused outright, whatever the arguments. */
export const BLOCKED_CALLS: readonly BlockedCall[] = [
  ...blocked(ENOSYS, 'keyctl', 'add_key', 'request_key'),
  ...blocked(ENOSYS, 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr'),
  ...blocked(EPERM, 'mount', 'umount2', 'pivot_root'),
  ...blocked(EPERM, 'perf_event_open', 'userfaultfd', 'ptrace', 'process_vm_readv', 'process_vm_writev', 'bpf'),
  ...blocked(EPERM, 'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module'),
  ...blocked(EPERM, 'acct', 'swapon', 'swapoff', 'reboot', 'syslog', 'quotactl', 'lookup_dcookie'),
  ...blocked(EPERM, 'open_by_handle_at', 'name_to_handle_at'),
  ...blocked(ENOSYS, 'io_uring_setup', 'io_uring_enter', 'io_uring_register'),
];

/** System call numbers: x86-64's own table, and the generic table arm64 uses (asm-generic/unistd.h). */
export const SYSCALL_NUMBERS: Record<SeccompArch, Record<string, number>> = {
  x64: {
    keyctl: 250, add_key: 248, request_key: 249,
    open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    mount: 165, umount2: 166, pivot_root: 155,
    perf_event_open: 298, userfaultfd: 323, ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, bpf: 321,
    kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176,
    acct: 163, swapon: 167, swapoff: 168, reboot: 169, syslog: 103, quotactl: 179, lookup_dcookie: 212,
    open_by_handle_at: 304, name_to_handle_at: 303,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    ioctl: 16, socket: 41, socketpair: 53,
  },
  arm64: {
    keyctl: 219, add_key: 217, request_key: 218,
    open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442,
    mount: 40, umount2: 39, pivot_root: 41,
    perf_event_open: 241, userfaultfd: 282, ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, bpf: 280,
    kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106,
    acct: 89, swapon: 224, swapoff: 225, reboot: 142, syslog: 116, quotactl: 60, lookup_dcookie: 18,
    open_by_handle_at: 265, name_to_handle_at: 264,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    ioctl: 29, socket: 198, socketpair: 199,
  },
};

/** AUDIT_ARCH_* values: the `arch` word of seccomp_data. */
export const AUDIT_ARCH: Record<SeccompArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };
/** x86-64's x32 ABI marks its call numbers with this bit. */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const AF_NETLINK = 16;
const NETLINK_NETFILTER = 12;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
/** The type argument's low bits; SOCK_NONBLOCK and SOCK_CLOEXEC are or-ed in above them. */
const SOCK_TYPE_MASK = 0xf;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;

// seccomp_data: nr (u32) at 0, arch (u32) at 4, instruction pointer at 8, args[i] (u64) at 16 + 8i.
// Both architectures are little-endian: an argument's low 32 bits are at its own offset.
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const argLow = (i: number) => 16 + 8 * i;

// Classic BPF opcodes (linux/filter.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const ALU_AND_K = 0x54;
const RET_K = 0x06;

export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
export const retErrno = (errno: number) => (SECCOMP_RET_ERRNO | errno) >>> 0;

export interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

export interface SeccompRules {
  /**
   * Refuse socket(AF_UNIX, …) and datagram socketpair(). On unless a server needs Unix sockets of
   * its own (and gets a network namespace of its own instead, where the host's abstract names are not).
   */
  denyUnixSockets: boolean;
}

const ins = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k: k >>> 0 });

/**
 * The filter as instructions. Shape: check the architecture, then one compare per rule, each
 * followed by its own return, so every jump is short and forward (no offset can overflow 255).
 */
export function seccompProgram(arch: SeccompArch, rules: SeccompRules): Instruction[] {
  const numbers = SYSCALL_NUMBERS[arch];
  const program: Instruction[] = [
    ins(LD_W_ABS, OFFSET_ARCH),
    ins(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ins(RET_K, retErrno(ENOSYS)),
    ins(LD_W_ABS, OFFSET_NR),
  ];
  if (arch === 'x64') program.push(ins(JGE_K, X32_SYSCALL_BIT, 0, 1), ins(RET_K, retErrno(ENOSYS)));
  for (const call of BLOCKED_CALLS) {
    const nr = numbers[call.name];
    if (nr === undefined) throw new Error(`no ${arch} number for ${call.name}`);
    program.push(ins(JEQ_K, nr, 0, 1), ins(RET_K, retErrno(call.errno)));
  }
  // ioctl(fd, TIOCSTI | TIOCLINUX): the request is an unsigned int, so its low 32 bits decide.
  program.push(
    ins(JEQ_K, numbers.ioctl as number, 0, 5),
    ins(LD_W_ABS, argLow(1)),
    ins(JEQ_K, TIOCSTI, 2, 0),
    ins(JEQ_K, TIOCLINUX, 1, 0),
    ins(RET_K, SECCOMP_RET_ALLOW),
    ins(RET_K, retErrno(EPERM)),
  );
  if (rules.denyUnixSockets) {
    // socketpair(domain, type, …): a stream or seqpacket pair only, whatever the flags. Every path
    // of this block returns, so the next rule still finds the call number loaded.
    program.push(
      ins(JEQ_K, numbers.socketpair as number, 0, 6),
      ins(LD_W_ABS, argLow(1)),
      ins(ALU_AND_K, SOCK_TYPE_MASK),
      ins(JEQ_K, SOCK_STREAM, 2, 0),
      ins(JEQ_K, SOCK_SEQPACKET, 1, 0),
      ins(RET_K, retErrno(EPERM)),
      ins(RET_K, SECCOMP_RET_ALLOW),
    );
  }
  // socket(domain, type, protocol), last: every call that is not socket() jumps to the final allow.
  // The domain and the protocol are ints: their low 32 bits decide. AF_UNIX where Unix sockets are
  // refused; netfilter's netlink always (no server configures a firewall, and nf_tables reached from
  // a user namespace of its own has been the way to the kernel of many exploits).
  const unix = rules.denyUnixSockets ? [ins(JEQ_K, AF_UNIX, 0, 1), ins(RET_K, retErrno(EPERM))] : [];
  const netfilter = [ins(JEQ_K, AF_NETLINK, 0, 3), ins(LD_W_ABS, argLow(2)), ins(JEQ_K, NETLINK_NETFILTER, 0, 1), ins(RET_K, retErrno(EPERM))];
  program.push(ins(JEQ_K, numbers.socket as number, 0, 1 + unix.length + netfilter.length), ins(LD_W_ABS, argLow(0)), ...unix, ...netfilter);
  program.push(ins(RET_K, SECCOMP_RET_ALLOW));
  return program;
}

/** The program as bwrap reads it from its fd: struct sock_filter[], little-endian, 8 bytes each. */
export function encodeProgram(program: readonly Instruction[]): Buffer {
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach((instruction, i) => {
    buffer.writeUInt16LE(instruction.code, i * 8);
    buffer.writeUInt8(instruction.jt, i * 8 + 2);
    buffer.writeUInt8(instruction.jf, i * 8 + 3);
    buffer.writeUInt32LE(instruction.k, i * 8 + 4);
  });
  return buffer;
}

/** This machine's architecture, if the filter knows it (elsewhere the claim is shown as not enforced). */
export function seccompArch(nodeArch: string = process.arch): SeccompArch | undefined {
  return nodeArch === 'x64' || nodeArch === 'arm64' ? nodeArch : undefined;
}

/** The encoded filter for this machine, or undefined where its architecture is not covered. */
export function seccompFilter(rules: SeccompRules, nodeArch: string = process.arch): Buffer | undefined {
  const arch = seccompArch(nodeArch);
  return arch ? encodeProgram(seccompProgram(arch, rules)) : undefined;
}

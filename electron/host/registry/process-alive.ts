// Whether a process still exists: lock files, temp files and proxy status files carry the pid of
// the process that made them, so a later process can tell leftovers from work in progress.
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

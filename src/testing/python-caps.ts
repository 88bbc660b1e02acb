/**
 * A Python program that writes past the shell's caps from inside Python (a 1 GiB file in /tmp, then 10 MiB files until
 * /tmp is full), and what the caps make of it: the file stops at 10 MiB (EFBIG), /tmp at 64 MiB (ENOSPC), and nothing
 * past a cap is kept. python.test.ts runs it in Node, python.browser.test.ts in Chromium over the app's workspace.
 */
export const CAPS_PROGRAM = [
  "import errno",
  "f = open('/tmp/big', 'wb')",
  "try:",
  "    for i in range(1024): f.write(b'x' * (1 << 20))",
  "except OSError as e: print('file', e.errno == errno.EFBIG, f.tell() >> 20)",
  "f.close()",
  "n = 0",
  "try:",
  "    for i in range(8):",
  "        with open(f'/tmp/f{i}', 'wb') as g: g.write(b'y' * (10 << 20))",
  "        n += 1",
  "except OSError as e: print('tmp', e.errno == errno.ENOSPC, n)",
  "open('/tmp/over', 'wb').write(b'z' * (10 << 20))",
].join("\n");

/** What the program prints: /tmp/big stops at 10 MiB; with it, a sixth file of 10 MiB would make 70 MiB, so it fails. */
export const CAPS_OUTPUT = "file True 10\ntmp True 5\n";

/** Its last write fails uncaught: the program ends with this error and exit code 1. */
export const CAPS_ERROR = /OSError: \[Errno \d+\] No space left on device/;

/** The command that measures what was kept, and what it prints. */
export const CAPS_SIZES = "wc -c /tmp/big /tmp/f0 /tmp/f5 /tmp/over";
export const CAPS_KEPT = /10485760 \/tmp\/big\n\s*10485760 \/tmp\/f0\n\s*0 \/tmp\/f5\n\s*0 \/tmp\/over\n/;

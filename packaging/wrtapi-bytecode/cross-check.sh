#!/usr/bin/env bash
# Checks that wrtapi-bytecode (src/bytecode.c) builds and works on the routers' architectures: for
# mips (big endian), mipsel and aarch64 Linux, and for this machine, it builds qjs from the
# QuickJS 2021-03-27 sources in node_modules (linked with -rdynamic, as bytecode.so needs) and
# bytecode.so, then runs a small module tree through the cache under qemu-user: entries are written
# with their header, read back (a forged entry is obeyed), refused in a group-writable folder, and a
# missing bytecode.so leaves the modules compiled from source; its sha256hex() gives the standard's
# digests of a string's UTF-8, and its hash64() the digits of src/engine/etag.ts (test/unit/hash.test.ts
# holds the same values); its exec() runs programs as os.exec does.
#
#   packaging/wrtapi-bytecode/cross-check.sh [host|mips|mipsel|aarch64]...   (default: all four)
#
# Needs gcc, and for the others gcc-<arch>-linux-gnu and qemu-user (Debian packages); run as root
# with WRTAPI_CROSS_INSTALL=1 to have missing ones installed. Exits 0 when every architecture
# passed, 1 when one failed, 77 when none failed but one was skipped for want of its tools.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
quickjs=$(cd "$here/../.." && pwd)/node_modules/qjsc/deps/quickjs_2021_03_27
units=(quickjs libregexp libunicode cutils libbf quickjs-libc)
cflags=(-O2 -D_GNU_SOURCE '-DCONFIG_VERSION="2021-03-27"' -DCONFIG_BIGNUM -w)
# 32-bit mips has no 64-bit atomic instructions: QuickJS's Atomics on BigInt64Array need libatomic.
libs=(-lm -ldl -lpthread -latomic)

# The Debian packages an architecture still lacks, one a line.
missing_packages() {
  if [[ $1 == host ]]; then
    command -v gcc >/dev/null || echo gcc
  else
    command -v "$1-linux-gnu-gcc" >/dev/null || echo "gcc-$1-linux-gnu"
    command -v "qemu-$1" >/dev/null || echo qemu-user
  fi
}

# Runs its arguments in the background; `wait_all` then fails when one of them failed.
pids=()
spawn() { "$@" & pids+=($!); }
wait_all() { local pid; for pid in "${pids[@]}"; do wait "$pid"; done; pids=(); }

# Builds qjs and bytecode.so for $arch in $out, running target programs through $emu.
build() {
  local unit
  for unit in "${units[@]}" qjsc qjs; do
    spawn "$cc" "${cflags[@]}" -c "$quickjs/$unit.c" -o "$out/$unit.o"
  done
  spawn "$cc" -O2 -Wall -Werror -shared -fPIC -I"$quickjs" '-DWRTAPI_QJS_VERSION="2021-03-27"' \
    -o "$out/bytecode.so" "$here"/src/*.c
  wait_all
  local objects=("${units[@]/#/$out/}")
  objects=("${objects[@]/%/.o}")
  "$cc" -o "$out/qjsc" "$out/qjsc.o" "${objects[@]}" "${libs[@]}"
  # qjs embeds the bytecode of its REPL, and bytecode is endian-specific: the target's qjsc writes it.
  spawn "${emu[@]}" "$out/qjsc" -c -o "$out/repl.c" -m "$quickjs/repl.js"
  spawn "${emu[@]}" "$out/qjsc" -fbignum -c -o "$out/qjscalc.c" "$quickjs/qjscalc.js"
  wait_all
  "$cc" "${cflags[@]}" -rdynamic -o "$out/qjs" "$out/qjs.o" "$out/repl.c" "$out/qjscalc.c" "${objects[@]}" "${libs[@]}"
}

fail() { echo "$arch: $*" >&2; exit 1; }

# The app prints `greeting` with a label, so that two versions of it tell apart.
write_app() {
  printf "import { greeting } from './greeting.js';\nprint(greeting + ', from %s');\n" "$1" >"$tree/app.js"
}

# Runs the launcher with a bytecode.so path, and checks that it prints the two lines given.
expect() {
  local so=$1 expected=$2$'\n'$3 got
  got=$("${emu[@]}" "$out/qjs" -m "$tree/launch.js" "$so" "$cache" 2>&1) || fail "qjs failed: $got"
  [[ $got == "$expected" ]] || fail "expected: ${expected@Q}, got: ${got@Q}"
}

# The cache entry of a module, named as bytecode.c names it: its path with slashes made dots.
entry() { local path=${1#/}; echo "$cache/${path//\//.}"; }

check_entry() {
  local file=$1 source=$2 lines
  mapfile -t -n 5 lines <"$file"
  ((${#lines[@]} == 5)) || fail "$file: header of ${#lines[@]} lines"
  [[ ${lines[0]} == 'wrtapi-bytecode 1' ]] || fail "$file: bad magic line: ${lines[0]@Q}"
  [[ ${lines[1]} =~ ^engine\ 2021-03-27\ [0-9]+:$(stat -c %i:%s:%Y "$out/qjs")$ ]] ||
    fail "$file: engine line ${lines[1]@Q} does not describe $out/qjs"
  [[ ${lines[2]} =~ ^source\ [0-9a-f]{16}\ $(stat -c %s "$source")$ ]] || fail "$file: bad source line: ${lines[2]@Q}"
  [[ ${lines[3]} == "module $source" ]] || fail "$file: bad module line: ${lines[3]@Q}"
  [[ ${lines[4]} =~ ^code\ [0-9a-f]{16}\ ([0-9]+)$ ]] || fail "$file: bad code line: ${lines[4]@Q}"
  (($(head -n 5 "$file" | wc -c) + BASH_REMATCH[1] == $(stat -c %s "$file"))) || fail "$file: code length is not the rest's"
}

check_cache() {
  local app=$tree/app.js genuine inode used='cache: true'
  mkdir "$tree"
  cat >"$tree/launch.js" <<'EOF'
// As shims/qjs/launch.ts: the cache, when it loads and accepts its folder, then the app.
const [, so, cache] = scriptArgs;
import(so)
  .then((module) => module.use(cache), () => 'no module')
  .then((used) => { print('cache: ' + used); return import('./app.js'); })
  .catch((error) => print('error: ' + error));
EOF
  echo "export const greeting = 'hello';" >"$tree/greeting.js"
  write_app original

  # (a) The first run compiles, and writes an entry for each module, in folders made 0700.
  expect "$out/bytecode.so" "$used" 'hello, from original'
  check_entry "$(entry "$app")" "$app"
  check_entry "$(entry "$tree/greeting.js")" "$tree/greeting.js"
  [[ $(stat -c %a "$cache" "${cache%/*}") == $'700\n700' ]] || fail "cache folders not made 0700"

  # (b) The second run reads the entries rather than writing them again (a write renames a new file in).
  genuine=$(entry "$app")
  inode=$(stat -c %i "$genuine")
  expect "$out/bytecode.so" "$used" 'hello, from original'
  [[ $(stat -c %i "$genuine") == "$inode" ]] || fail "second run wrote app.js's entry again"

  # (c) An entry whose header fits app.js but whose code is another source's is obeyed: the code
  # runs from the cache, not from app.js.
  cp "$genuine" "$out/genuine"
  write_app modified
  expect "$out/bytecode.so" "$used" 'hello, from modified'
  cp "$genuine" "$out/modified"
  write_app original
  { head -n 4 "$out/genuine"; tail -n +5 "$out/modified"; } >"$genuine"
  expect "$out/bytecode.so" "$used" 'hello, from modified'

  # (d) A folder others may write to is refused: app.js is compiled from source again.
  chmod 0770 "$cache"
  expect "$out/bytecode.so" 'cache: false' 'hello, from original'

  # (e) Without bytecode.so the launcher goes on from source.
  expect "$out/missing.so" 'cache: no module' 'hello, from original'
}

# Runs $out/<name>.js with the module's path, and checks that it prints the lines given.
check_prints() {
  local name=$1 expected=$2 got
  got=$("${emu[@]}" "$out/qjs" -m "$out/$name.js" "$out/bytecode.so" 2>&1) || fail "$name failed: $got"
  [[ $got == "$expected" ]] || fail "$name: expected ${expected@Q}, got ${got@Q}"
}

# sha256hex() gives FIPS 180-4's digests on this byte order, of a string's UTF-8 as Node's crypto
# hashes it: empty, one block, a padding that spills into a second block (56 bytes), many blocks;
# Latin-1, CJK and a surrogate pair, and unpaired surrogates as U+FFFD.
check_sha256hex() {
  local expected
  cat >"$out/sha256hex.js" <<'EOF'
const [, so] = scriptArgs;
import(so).then(({ sha256hex }) => ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'x'.repeat(1000), 's4lt:wrtapi_\u00e9', '\u65e5\u672c\u8a9e \u{1f600}', 'lone \ud800 and \udfff'].forEach((text) => print(sha256hex(text))));
EOF
  expected='e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318
b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a
44f8354494a5ba03ba1792a8d3e9c534c47a9181980fde7a3f44b06ef2ae7c7f
a24902ca0f019e9fab5d4d1f7663781c40a716a9ef59acedd096c07a88a47101
fde211ca1a740f4758ae554eb97eca48c2aa74cdf8b656adfa31266d72b6106c
4b19601c106461ea1c0c00e86b5b02d6a10100a3c523671e61c488890310acbb'
  check_prints sha256hex "$expected"
}

# hash64() gives the digits etag.ts's hash64 gives: ASCII, Latin-1 and BMP, a surrogate pair, unpaired
# surrogates, a NUL.
check_hash64() {
  local expected
  cat >"$out/hash64.js" <<'EOF'
const [, so] = scriptArgs;
import(so).then(({ hash64 }) => ['', '{"id":"r1"}', '\u00e9 \u00fc \u4e2d \u00ff', 'emoji \u{1f600}!', 'lone \ud800 and \udfff', 'nul \u0000 inside'].forEach((text) => print(hash64(text))));
EOF
  expected='1aee8d83488bdcb8
d38376adbbb67325
af48799ed2a368d5
4733a6ecefaf1826
c942e0d4e730713d
6efb5ba5a52c2195'
  check_prints hash64 "$expected"
}

# recall() answers what remember() kept only for the very name and text, a value that holds code is
# not kept, a name that is no plain file name is refused and one that throws throws; the entry's
# header is objects.c's.
check_objects() {
  local entry=$cache/kept.object lines got expected
  cat >"$out/objects.js" <<'JS'
const [, so, cache] = scriptArgs;
import(so).then(({ use, recall, remember }) => {
  print(use(cache));
  remember('kept', 'made from', { list: ['a', 1, true, null], text: '\u00e9\u4e2d' });
  print(JSON.stringify(recall('kept', 'made from')));
  print(String(recall('kept', 'made from!')), String(recall('other', 'made from')));
  remember('code', 'made from', { run: () => 1 });
  remember('../escape', 'made from', 1);
  print(String(recall('code', 'made from')), String(recall('../escape', 'made from')));
  try {
    recall({ toString() { throw new Error('no name'); } }, 'made from');
  } catch (error) {
    print(error.message);
  }
});
JS
  expected='true
{"list":["a",1,true,null],"text":"é中"}
undefined undefined
undefined undefined
no name'
  rm -rf "${cache%/*}"
  got=$("${emu[@]}" "$out/qjs" -m "$out/objects.js" "$out/bytecode.so" "$cache" 2>&1) || fail "objects failed: $got"
  [[ $got == "$expected" ]] || fail "objects: expected ${expected@Q}, got ${got@Q}"
  mapfile -t -n 3 lines <"$entry"
  [[ ${lines[0]} == 'wrtapi-object 1' && ${lines[1]} =~ ^engine\ 2021-03-27\  && ${lines[2]} == 'text 9' ]] ||
    fail "$entry: bad header: ${lines[*]@Q}"
  [[ ! -e $cache/code.object && ! -e ${cache%/*}/escape.object ]] || fail "a value holding code, or a name with a slash, was kept"
}

# exec() runs a program as os.exec does: the same descriptors open in the child (held ones not
# among them), its stdout where asked, an exit status, a signal negated, 127 for a missing program,
# and without blocking the pid to wait for.
check_exec() {
  cat >"$out/exec.js" <<'JS'
import * as os from 'os';
import * as std from 'std';
const [, so, dir] = scriptArgs;
const list = "for f in /proc/$$/fd/*; do printf '%s ' ${f##*/}; done";
import(so).then(({ exec }) => {
  // Held where the child's own (the glob's folder, 3) cannot be.
  const held = [20, 21, 22, 23].map((fd) => os.dup2(os.open('/dev/null', os.O_RDONLY), fd) && fd);
  const out = (name) => os.open(`${dir}/fds.${name}`, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600);
  print(exec(['/bin/sh', '-c', list], 0, out('module'), 2, true), os.exec(['/bin/sh', '-c', list], { block: true, usePath: false, stdout: out('os') }));
  const [module, qjs] = ['module', 'os'].map((name) => std.loadFile(`${dir}/fds.${name}`));
  print(module === qjs && module.length > 0 && !held.some((fd) => module.split(' ').includes(String(fd))) ? 'same descriptors' : `module: ${module}, os.exec: ${qjs}`);
  print(exec(['/bin/sh', '-c', 'exit 3'], 0, 1, 2, true), exec(['/bin/sh', '-c', 'kill -TERM $$'], 0, 1, 2, true), exec(['/nonexistent'], 0, 1, 2, true));
  const pid = exec(['/bin/sh', '-c', 'exit 5'], 0, 1, 2, false);
  const [waited, status] = os.waitpid(pid, 0);
  print(pid > 0 && waited === pid, status >> 8);
});
JS
  local expected='0 0
same descriptors
3 -15 127
true 5' got
  got=$("${emu[@]}" "$out/qjs" -m "$out/exec.js" "$out/bytecode.so" "$out" 2>&1) || fail "exec failed: $got"
  [[ $got == "$expected" ]] || fail "exec: expected ${expected@Q}, got ${got@Q}"
}

# Builds and checks one architecture, its output in $work/$arch.log.
check_arch() {
  arch=$1 out=$work/$1
  tree=$out/tree cache=$out/run/bytecode
  mkdir "$out"
  if [[ $arch == host ]]; then
    cc=gcc emu=()
  else
    cc=$arch-linux-gnu-gcc emu=("qemu-$arch" -L "/usr/$arch-linux-gnu")
  fi
  build
  check_cache
  check_sha256hex
  check_hash64
  check_objects
  check_exec
}

run_arch() {
  local start=$SECONDS
  check_arch "$1" >"$work/$1.log" 2>&1 &
  if wait $!; then
    echo "$1: passed in $((SECONDS - start)) s"
  else
    echo "$1: FAILED after $((SECONDS - start)) s:"; sed 's/^/    /' "$work/$1.log"
    touch "$work/failed"
  fi
}

main() {
  local arches=("$@") arch missing skipped=0
  (($#)) || arches=(host mips mipsel aarch64)
  [[ -f $quickjs/quickjs.c ]] || { echo "no QuickJS sources in $quickjs: run npm ci first" >&2; exit 1; }
  missing=$(for arch in "${arches[@]}"; do missing_packages "$arch"; done | sort -u)
  if [[ $missing && ${WRTAPI_CROSS_INSTALL:-} == 1 && $EUID == 0 ]]; then
    # A registry out of reach skips the architectures that need what it would have brought.
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; } ||
      echo "could not install $missing"
  fi

  work=$(mktemp -d "${TMPDIR:-/tmp}/wrtapi-cross.XXXXXX")
  trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
  # As many architectures build at once as there are cores, the units of each in parallel too:
  # quickjs.c alone takes most of a build.
  local slots; slots=$(nproc)
  for arch in "${arches[@]}"; do
    missing=$(missing_packages "$arch" | paste -sd ' ')
    if [[ $missing ]]; then
      echo "$arch: SKIPPED, missing $missing (install it, or run as root with WRTAPI_CROSS_INSTALL=1)"
      skipped=1
      continue
    fi
    while (($(jobs -rp | wc -l) >= slots)); do wait -n || true; done
    run_arch "$arch" &
  done
  wait
  echo "all: $SECONDS s"
  [[ ! -e $work/failed ]] || exit 1
  ((!skipped)) || exit 77
}

main "$@"

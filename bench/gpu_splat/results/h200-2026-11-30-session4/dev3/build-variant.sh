# /tmp/variant2.sh DEFINES OUT: starlens-splat with atomic_splat.hip compiled with DEFINES
set -e
D=$1 OUT=$2 tag=$(echo "$1" | tr -c 'a-zA-Z0-9' _)
cd /work/main/build-cuda
cmds=$(ninja -t commands tools/splat/starlens-splat)
compile=$(echo "$cmds" | grep 'atomic_splat.hip' | sed "s| -c | $D -c |; s|-MD -MF [^ ]*||; s|-o tools/splat/gpu/libstarlens_splat_gpu.a.p/atomic_splat.o|-o /tmp/atomic-$tag.o|")
eval "$compile"
archive=$(echo "$cmds" | grep 'gcc-ar' | sed "s|rm -f tools/splat/gpu/libstarlens_splat_gpu.a && ||; s|tools/splat/gpu/libstarlens_splat_gpu.a.p/atomic_splat.o|/tmp/atomic-$tag.o|; s|csrDT tools/splat/gpu/libstarlens_splat_gpu.a |csrD /tmp/gpu-$tag.a |")
rm -f /tmp/gpu-$tag.a; eval "$archive"
link=$(echo "$cmds" | tail -1 | sed "s|tools/splat/gpu/libstarlens_splat_gpu.a|/tmp/gpu-$tag.a|; s|-o tools/splat/starlens-splat |-o $OUT |")
eval "$link"

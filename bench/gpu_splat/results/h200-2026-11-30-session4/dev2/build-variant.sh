# /tmp/variant.sh W L OUT: starlens-splat with scatter16 at W warps, L lanes per event
set -e
W=$1 L=$2 OUT=$3
cd /work/main/build-cuda
cmds=$(ninja -t commands tools/splat/starlens-splat)
compile=$(echo "$cmds" | grep 'scatter_splat.hip' | sed "s| -c | -DSTARLENS_SCATTER_WARPS=$W -DSTARLENS_SCATTER_LANES=$L -c |; s|-MD -MF [^ ]*||; s|-o tools/splat/gpu/libstarlens_splat_gpu.a.p/scatter_splat.o|-o /tmp/scatter-$W-$L.o|")
eval "$compile"
archive=$(echo "$cmds" | grep 'gcc-ar' | sed "s|rm -f tools/splat/gpu/libstarlens_splat_gpu.a && ||; s|tools/splat/gpu/libstarlens_splat_gpu.a.p/scatter_splat.o|/tmp/scatter-$W-$L.o|; s|csrDT tools/splat/gpu/libstarlens_splat_gpu.a |csrD /tmp/gpu-$W-$L.a |")
rm -f /tmp/gpu-$W-$L.a; eval "$archive"
link=$(echo "$cmds" | tail -1 | sed "s|tools/splat/gpu/libstarlens_splat_gpu.a|/tmp/gpu-$W-$L.a|; s|-o tools/splat/starlens-splat |-o $OUT |")
eval "$link"

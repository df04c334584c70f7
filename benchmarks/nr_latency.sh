export LD_LIBRARY_PATH=$PWD/build-carry/lib:$PWD/.device/lib:$LD_LIBRARY_PATH
B=build-carry/apps/gpufec-bench
R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --iterations 10 --backend cuda"
R13="--code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda"
run() { echo "== $*"; $B "$@" 2>&1 | grep -E "^coded|kernel-only coded" | sed 's/LLR rate.*//' ; }
for p in float32 float16 int8; do
  run $R079 --frames 1 --repeat 41 --precision $p
  run $R079 --frames 1 --repeat 41 --precision $p --cuda-tuning 2048
done
# int8 and float16: edge pairs (default) against the lean kernel (524288, NO_EDGE_PAIRS)
for p in float16 int8; do
  run $R079 --frames 1 --repeat 41 --precision $p --cuda-tuning 524288
  run $R13 --frames 1 --repeat 21 --precision $p
  run $R13 --frames 1 --repeat 21 --precision $p --cuda-tuning 524288
done
run $R13 --frames 1 --repeat 21
run $R13 --frames 1 --repeat 21 --cuda-tuning 2048
run $R13 --frames 1 --repeat 21 --precision int8
for p in float32 int8; do
  run $R079 --frames 152 --repeat 41 --precision $p
  run $R079 --frames 152 --repeat 41 --precision $p --cuda-tuning 2048
  run $R079 --frames 132 --repeat 41 --precision $p
done

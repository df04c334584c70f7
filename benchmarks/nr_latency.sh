export LD_LIBRARY_PATH=$PWD/build-carry/lib:$PWD/.device/lib:$LD_LIBRARY_PATH
B=${B:-build-carry/apps/gpufec-bench}
R079="--code 5gnr-bg1-z384:k=8448:e=10752:qm=2 --decoder nms --iterations 10 --backend cuda"
R13="--code 5gnr-bg1-z384 --decoder nms --iterations 10 --backend cuda"
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
for p in float32 float16 int8; do
  bench $R079 --frames 1 --repeat 41 --precision $p
  bench $R079 --frames 1 --repeat 41 --precision $p --cuda-tuning 2048
done
# int8 and float16: edge pairs (default) against the lean kernel (524288, NO_EDGE_PAIRS)
for p in float16 int8; do
  bench $R079 --frames 1 --repeat 41 --precision $p --cuda-tuning 524288
  bench $R13 --frames 1 --repeat 21 --precision $p
  bench $R13 --frames 1 --repeat 21 --precision $p --cuda-tuning 524288
done
bench $R13 --frames 1 --repeat 21
bench $R13 --frames 1 --repeat 21 --cuda-tuning 2048
bench $R13 --frames 1 --repeat 21 --precision int8
for p in float32 int8; do
  bench $R079 --frames 152 --repeat 41 --precision $p
  bench $R079 --frames 152 --repeat 41 --precision $p --cuda-tuning 2048
  bench $R079 --frames 132 --repeat 41 --precision $p
done

export LD_LIBRARY_PATH=$PWD/build-carry/lib:$PWD/.device/lib:$LD_LIBRARY_PATH
B=${B:-build-carry/apps/gpufec-bench}
. "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
for code in "5gnr-bg1-z384:k=8448:e=10752:qm=2" "5gnr-bg1-z384"; do
  for t in 0 4096; do
    bench --code $code --decoder nms --iterations 10 --backend cuda --frames 1 --repeat 41 --cuda-tuning $t
    bench --code $code --decoder nms --iterations 10 --backend cuda --frames 8192 --cuda-tuning $t
    bench --code $code --decoder nms --iterations 10 --backend cuda --frames 8192 --precision float16 --cuda-tuning $t
  done
done
bench --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --cuda-tuning 4096
bench --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096

export LD_LIBRARY_PATH=$PWD/build-carry/lib:$PWD/.device/lib:$LD_LIBRARY_PATH
B=build-carry/apps/gpufec-bench
run() { echo "== $*"; $B "$@" 2>&1 | grep -E "kernel-only coded|^coded" | sed 's/LLR rate.*//; s/| info.*per frame/| per frame/' ; }
for code in "5gnr-bg1-z384:k=8448:e=10752:qm=2" "5gnr-bg1-z384"; do
  for t in 0 4096; do
    run --code $code --decoder nms --iterations 10 --backend cuda --frames 1 --repeat 41 --cuda-tuning $t
    run --code $code --decoder nms --iterations 10 --backend cuda --frames 8192 --cuda-tuning $t
    run --code $code --decoder nms --iterations 10 --backend cuda --frames 8192 --precision float16 --cuda-tuning $t
  done
done
run --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096 --cuda-tuning 4096
run --code dvbs2-normal-1_2 --decoder nms --iterations 10 --backend cuda --frames 4096

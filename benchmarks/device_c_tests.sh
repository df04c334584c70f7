export LD_LIBRARY_PATH=$PWD/build-carry/lib:$PWD/.device/lib:$LD_LIBRARY_PATH
export GPUFEC_TEST_DATA=$PWD/tests/data
cd tests/data
for t in ../../build-carry/tests/c/test_*; do
  n=$(basename $t)
  $t > $OUT/$n.log 2>&1; rc=$?
  echo "$n rc=$rc $(tail -1 $OUT/$n.log)"
done

// What a small synchronous decode call's host steps cost around a kernel of fixed length (a
// spin on %globaltimer, 45 us by default: one 5G NR R = 0.79 block), each way of calling timed
// in rounds that interleave them. docs/performance.md, thirty-sixth pass; build and run:
//   nvcc -O2 -arch=sm_90 -o call_overhead_probe benchmarks/call_overhead_probe.cu
//   ./call_overhead_probe [KERNEL_NS]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
__global__ void spin(unsigned long long ns, const float* in, unsigned char* out) {
    unsigned long long t0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    unsigned long long t = t0;
    while (t - t0 < ns) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (threadIdx.x == 0 && in) out[0] = in[0] > 0;
}
static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
    unsigned long long ns = argc > 1 ? strtoull(argv[1], 0, 10) : 45000;
    const size_t inb = 10752 * 4, outb = 8448;
    float *hin, *din; unsigned char *hout, *dout, *stage; int *hit_pinned, *dit;
    int* hit_page = (int*)malloc(64);
    CK(cudaHostAlloc(&hin, inb, 0)); CK(cudaHostAlloc(&hout, outb, 0)); CK(cudaHostAlloc(&hit_pinned, 64, 0));
    CK(cudaHostAlloc(&stage, outb + 64, 0));
    CK(cudaMalloc(&din, inb)); CK(cudaMalloc(&dout, outb + 64)); dit = (int*)(dout + outb);
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t k0, k1, n0, n1; CK(cudaEventCreate(&k0)); CK(cudaEventCreate(&k1));
    CK(cudaEventCreateWithFlags(&n0, cudaEventDisableTiming)); CK(cudaEventCreateWithFlags(&n1, cudaEventDisableTiming));
    const char* names[] = {"A today (bench): events, out pinned, iters pageable",
                           "B no events, out pinned, iters pageable",
                           "C untimed events, out pinned, iters pageable",
                           "D events, out pinned, iters pinned",
                           "E events, one copy [out|iters] to pinned stage + memcpy",
                           "F no events, one copy to stage + memcpy",
                           "G events, kernel, no copy out",
                           "H launch + sync only",
                           "I no events, copy in, kernel, one copy out, as a CUDA graph",
                           "J launch + sync only, as a CUDA graph"};
    const int M = 10;
    cudaGraphExec_t graph[2] = {nullptr, nullptr};
    auto call = [&](int m) {
        if (m >= 8) {
            CK(cudaGraphLaunch(graph[m - 8], s));
            CK(cudaStreamSynchronize(s));
            return;
        }
        if (m != 7) CK(cudaMemcpyAsync(din, hin, inb, cudaMemcpyDefault, s));
        bool ev = (m == 0 || m == 3 || m == 4 || m == 6), un = (m == 2);
        if (ev) CK(cudaEventRecord(k0, s));
        if (un) CK(cudaEventRecord(n0, s));
        spin<<<1, 384, 0, s>>>(ns, din, dout);
        if (ev) CK(cudaEventRecord(k1, s));
        if (un) CK(cudaEventRecord(n1, s));
        if (m <= 3) {
            CK(cudaMemcpyAsync(hout, dout, outb, cudaMemcpyDefault, s));
            CK(cudaMemcpyAsync(m == 3 ? hit_pinned : hit_page, dit, 4, cudaMemcpyDefault, s));
        } else if (m == 4 || m == 5) {
            CK(cudaMemcpyAsync(stage, dout, outb + 4, cudaMemcpyDefault, s));
        }
        CK(cudaStreamSynchronize(s));
        if (m == 4 || m == 5) { memcpy(hout, stage, outb); memcpy(hit_page, stage + outb, 4); }
        if (ev) { float ms; CK(cudaEventElapsedTime(&ms, k0, k1)); }
    };
    for (int g = 0; g < 2; g++) { // captured once, replayed by each call
        cudaGraph_t gr;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        if (g == 0) CK(cudaMemcpyAsync(din, hin, inb, cudaMemcpyDefault, s));
        spin<<<1, 384, 0, s>>>(ns, din, dout);
        if (g == 0) CK(cudaMemcpyAsync(stage, dout, outb + 4, cudaMemcpyDefault, s));
        CK(cudaStreamEndCapture(s, &gr));
        CK(cudaGraphInstantiate(&graph[g], gr, 0));
    }
    std::vector<double> t[M];
    for (int m = 0; m < M; m++) for (int r = 0; r < 20; r++) call(m);
    for (int round = 0; round < 8; round++)
        for (int m = 0; m < M; m++)
            for (int r = 0; r < 40; r++) { double a = now_us(); call(m); t[m].push_back(now_us() - a); }
    for (int m = 0; m < M; m++) {
        std::sort(t[m].begin(), t[m].end());
        size_t n = t[m].size();
        printf("%-58s min %.1f p25 %.1f median %.1f p75 %.1f p90 %.1f us\n", names[m], t[m][0], t[m][n/4], t[m][n/2], t[m][3*n/4], t[m][n*9/10]);
    }
    return 0;
}

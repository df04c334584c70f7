// The cost of one exchange between the blocks of a thread-block cluster, per layer of a layered
// decoder, against __syncthreads: why one 5G NR block stays on one SM (docs/performance.md,
// eighth pass; a whole cluster kernel was measured slower in the sixth). Standalone, not built
// by CMake:
//   nvcc -O3 -arch=sm_90 -o cluster_barrier_probe benchmarks/cluster_barrier_probe.cu
//   ./cluster_barrier_probe      (cycles per iteration of: remote stores, then the barrier)
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k_sync(long long* out, int n) {
    __shared__ unsigned v[1024];
    unsigned x = threadIdx.x;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        v[threadIdx.x] = x;
        __syncthreads();
        x += v[(threadIdx.x + 1) % blockDim.x];
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = x; }
}

template <int MODE>
__global__ void k_cluster(long long* out, int n) {
    __shared__ unsigned v[2][1024];
    cg::cluster_group cl = cg::this_cluster();
    const unsigned r = cl.block_rank(), C = cl.num_blocks();
    unsigned* peer[2];
    peer[0] = cl.map_shared_rank(&v[0][0], (r + 1) % C);
    peer[1] = cl.map_shared_rank(&v[1][0], (r + 1) % C);
    unsigned x = threadIdx.x;
    cl.sync();
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        const int b = i & 1;
        if (MODE == 0) { // one remote store per thread, then the cluster barrier
            peer[b][threadIdx.x] = x;
            cl.sync();
        } else if (MODE == 1) { // split: arrive.release, wait.acquire
            peer[b][threadIdx.x] = x;
            asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
            asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        } else if (MODE == 2) { // barrier only, no remote store
            v[b][threadIdx.x] = x;
            asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
            asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        } else { // relaxed arrive (no fence), as for a pure barrier
            peer[b][threadIdx.x] = x;
            asm volatile("fence.acq_rel.cluster;" ::: "memory");
            asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
            asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
        }
        x += v[b][(threadIdx.x + 1) % blockDim.x];
    }
    long long t1 = clock64();
    if (threadIdx.x == 0 && r == 0) { out[0] = t1 - t0; out[1] = x; }
    cl.sync();
}

// one thread per CTA signals the peers' mbarriers; every thread waits on its own
__global__ void k_mbar(long long* out, int n) {
    __shared__ unsigned v[2][1024];
    __shared__ unsigned long long bar;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned r = cl.block_rank(), C = cl.num_blocks();
    unsigned* peer[2];
    peer[0] = cl.map_shared_rank(&v[0][0], (r + 1) % C);
    peer[1] = cl.map_shared_rank(&v[1][0], (r + 1) % C);
    const unsigned bar_local = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar_local), "r"(C - 1));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cl.sync();
    unsigned x = threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        const int b = i & 1;
        peer[b][threadIdx.x] = x;
        __syncthreads();
        if (threadIdx.x < C - 1) {
            const unsigned dst = (r + 1 + threadIdx.x) % C;
            unsigned remote;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar_local), "r"(dst));
            asm volatile("fence.acq_rel.cluster;" ::: "memory");
            asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote) : "memory");
        }
        unsigned done = 0;
        while (!done) {
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(bar_local), "r"((unsigned)b) : "memory");
        }
        x += v[b][(threadIdx.x + 1) % blockDim.x];
    }
    long long t1 = clock64();
    if (threadIdx.x == 0 && r == 0) { out[0] = t1 - t0; out[1] = x; }
    cl.sync();
}

/* cycles per iteration of kernel k on one cluster of C blocks */
float run_on_cluster(void (*k)(long long*, int), int C, int threads, int n, long long* d, long long* h) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(C); cfg.blockDim = dim3(threads);
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, k, d, n);
    if (e != cudaSuccess) { printf("launch: %s\n", cudaGetErrorString(e)); return -1; }
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("run: %s\n", cudaGetErrorString(e)); return -1; }
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    return (float)h[0] / n;
}
template <int MODE> float run_cluster(int C, int threads, int n, long long* d, long long* h) {
    return run_on_cluster(k_cluster<MODE>, C, threads, n, d, h);
}

int main() {
    long long *d, h[2];
    cudaMalloc(&d, 16);
    int n = 20000;
    int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    printf("clock %d kHz\n", clk);
    for (int t : {192, 384}) {
        for (int rep = 0; rep < 2; rep++) {
            k_sync<<<1, t>>>(d, n); cudaDeviceSynchronize(); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
            printf("syncthreads %d threads: %.1f cycles/iter\n", t, (float)h[0] / n);
        }
        for (int C : {2, 4, 8}) {
            printf("cluster %d x %d threads: store+sync %.1f | split %.1f | barrier only %.1f | relaxed %.1f cycles/iter\n", C, t,
                   run_cluster<0>(C, t, n, d, h), run_cluster<1>(C, t, n, d, h), run_cluster<2>(C, t, n, d, h),
                   run_cluster<3>(C, t, n, d, h));
            printf("cluster %d x %d threads: mbarrier signal %.1f cycles/iter\n", C, t, run_on_cluster(k_mbar, C, t, n, d, h));
        }
    }
    return 0;
}

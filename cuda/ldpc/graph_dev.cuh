/* The Tanner graph and output positions on the device, shared by the LDPC kernel plans. */
#ifndef GPUFEC_LDPC_GRAPH_DEV_CUH
#define GPUFEC_LDPC_GRAPH_DEV_CUH

#include "engine.cuh"

extern "C" {
#include "ldpc_code.h"
}

struct ldpc_graph_dev {
    uint32_t *row_ptr, *edge_var, *col_ptr, *col_edge, *layer_ptr, *layer_rows;
    uint32_t* out_pos; /* the decoder's output positions (NULL: the whole mother codeword) */
    tx_map_dev map;
};

/* layers: also the layer tables (layered schedules). */
static inline cudaError_t ldpc_graph_upload(const decoder_config* cfg, int layers, ldpc_graph_dev* g)
{
    const ldpc_code* c = ldpc_of(cfg->code);
    *g = ldpc_graph_dev{};
    cudaError_t e = dev_upload(&g->row_ptr, c->row_ptr, (size_t)c->m + 1);
    if (e == cudaSuccess)
        e = dev_upload(&g->edge_var, c->edge_var, c->edges);
    if (e == cudaSuccess)
        e = dev_upload(&g->col_ptr, c->col_ptr, (size_t)c->n + 1);
    if (e == cudaSuccess)
        e = dev_upload(&g->col_edge, c->col_edge, c->edges);
    if (e == cudaSuccess && layers)
        e = dev_upload(&g->layer_ptr, c->layer_ptr, (size_t)c->n_layers + 1);
    if (e == cudaSuccess && layers)
        e = dev_upload(&g->layer_rows, c->layer_rows, c->m);
    if (e == cudaSuccess && cfg->out_pos)
        e = dev_upload(&g->out_pos, cfg->out_pos, cfg->out_len);
    if (e == cudaSuccess)
        e = tx_map_upload(&cfg->code->tx, &g->map);
    return e;
}

static inline void ldpc_graph_free(ldpc_graph_dev* g)
{
    void* p[] = {g->row_ptr, g->edge_var, g->col_ptr, g->col_edge, g->layer_ptr, g->layer_rows, g->out_pos};
    for (void* x : p)
        if (x)
            cudaFree(x);
    tx_map_dev_free(&g->map);
    *g = ldpc_graph_dev{};
}

#endif

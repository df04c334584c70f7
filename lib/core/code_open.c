/* Opening codes by built-in name or file path. */
#include "builtin_codes.h"
#include "code_internal.h"
#include "text_reader.h"

#include <stdio.h>
#include <string.h>

size_t gpufec_code_builtin_count(void) { return builtin_code_table_size; }

const char* gpufec_code_builtin_name(size_t index)
{
    return index < builtin_code_table_size ? builtin_code_table[index].name : NULL;
}

static int has_suffix(const char* s, const char* suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

gpufec_status gpufec_code_open(gpufec_code** out, const char* name_or_path, gpufec_diag* diag)
{
    if (!out || !name_or_path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < builtin_code_table_size; i++) {
        const builtin_code* b = &builtin_code_table[i];
        if (strcmp(b->name, name_or_path) != 0)
            continue;
        const char* text = (const char*)b->data;
        if (b->format == BUILTIN_QC)
            return gpufec_code_from_qc_text(out, text, b->length, b->lifting, diag);
        return gpufec_code_from_alist_text(out, text, b->length, diag);
    }
    FILE* probe = fopen(name_or_path, "rb");
    if (!probe) {
        if (diag) {
            diag->line = 0;
            snprintf(diag->message, sizeof diag->message,
                     "'%.160s' is neither a built-in code name nor a readable file", name_or_path);
        }
        return GPUFEC_ERR_UNKNOWN_CODE;
    }
    fclose(probe);
    if (has_suffix(name_or_path, ".qc") || has_suffix(name_or_path, ".txt"))
        return gpufec_code_from_qc_file(out, name_or_path, 0, diag);
    return gpufec_code_from_alist_file(out, name_or_path, diag);
}

/* Opening a code of any family by built-in name or file path: each family in family_registry
 * is asked in turn; the first that knows the name (or claims the file) opens and completes it. */
#include "code_internal.h"
#include "family.h"
#include "text_reader.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

size_t gpufec_code_builtin_count(void)
{
    size_t count = 0;
    for (const family_record* const* f = family_registry; *f; f++)
        count += (*f)->builtin_count();
    return count;
}

const char* gpufec_code_builtin_name(size_t index)
{
    for (const family_record* const* f = family_registry; *f; f++) {
        const size_t n = (*f)->builtin_count();
        if (index < n)
            return (*f)->builtin_name(index);
        index -= n;
    }
    return NULL;
}

gpufec_status gpufec_code_builtin_family(size_t index, gpufec_family* family)
{
    for (const family_record* const* f = family_registry; *f && family; f++) {
        const size_t n = (*f)->builtin_count();
        if (index < n) {
            *family = (*f)->id;
            return GPUFEC_OK;
        }
        index -= n;
    }
    return GPUFEC_ERR_INVALID_ARGUMENT;
}

/* Where the options start: the first ':' followed by a lower-case key and '=' ("name:k=100"),
 * so that a path with other colons stays whole. NULL: no options. */
static const char* find_options(const char* s)
{
    for (const char* c = strchr(s, ':'); c; c = strchr(c + 1, ':')) {
        const char* k = c + 1;
        while (*k >= 'a' && *k <= 'z')
            k++;
        if (k > c + 1 && *k == '=')
            return c;
    }
    return NULL;
}

gpufec_status gpufec_code_open(gpufec_code** out, const char* name_or_path, gpufec_diag* diag)
{
    if (!out || !name_or_path)
        return GPUFEC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (diag) {
        diag->line = 0;
        diag->message[0] = '\0';
    }
    const char* options = find_options(name_or_path);
    const size_t len = options ? (size_t)(options - name_or_path) : strlen(name_or_path);
    char name[512];
    if (len >= sizeof name)
        return text_fail_as(GPUFEC_ERR_INVALID_ARGUMENT, diag, 0,
                            "code name or path too long: %zu characters (limit %zu)", len, sizeof name - 1);
    memcpy(name, name_or_path, len);
    name[len] = '\0';
    const char* suffix = options ? options + 1 : NULL;

    for (const family_record* const* f = family_registry; *f; f++) {
        gpufec_status st = (*f)->open_name(out, name, suffix, diag);
        if (st != GPUFEC_ERR_UNKNOWN_CODE)
            return st;
    }
    /* A family that knew the name's form but not this instance said why (e.g. a block size
     * its standard does not have): that reason beats the generic one. */
    if (access(name, F_OK) != 0 && diag && diag->message[0])
        return GPUFEC_ERR_UNKNOWN_CODE;
    if (access(name, F_OK) != 0)
        return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0,
                            "'%.160s' is neither a built-in code name nor a readable file", name);
    if (diag)
        diag->message[0] = '\0';
    if (!path_is_regular_file(name))
        return text_fail_as(GPUFEC_ERR_IO, diag, 0, "'%.160s' is not a regular file", name);
    for (const family_record* const* f = family_registry; *f; f++) {
        gpufec_status st = (*f)->open_file(out, name, suffix, diag);
        if (st != GPUFEC_ERR_UNKNOWN_CODE)
            return st;
    }
    return text_fail_as(GPUFEC_ERR_UNKNOWN_CODE, diag, 0, "'%.160s': no code family reads this file", name);
}

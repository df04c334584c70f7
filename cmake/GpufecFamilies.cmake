# gpufec_families(OUT): the code families, one per folder of lib/ other than core/ and gr/. A
# family's C sources are lib/<family>/*.c, its kernel plans cuda/<family>/*.cu, its GRC blocks
# generated from the library (grc/generate_blocks.py, lib/<family>/grc_block.txt).
function(gpufec_families out)
  file(GLOB _entries LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/lib ${PROJECT_SOURCE_DIR}/lib/*)
  set(_families "")
  foreach(_e ${_entries})
    if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/lib/${_e} AND NOT _e STREQUAL "core" AND NOT _e STREQUAL "gr")
      list(APPEND _families ${_e})
    endif()
  endforeach()
  set(${out} ${_families} PARENT_SCOPE)
endfunction()

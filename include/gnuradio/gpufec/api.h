/* Symbol visibility of the gr-gpufec GNU Radio block library. */
#ifndef INCLUDED_GPUFEC_API_H
#define INCLUDED_GPUFEC_API_H

#include <gnuradio/attributes.h>

#ifdef gnuradio_gpufec_EXPORTS
#define GPUFEC_GR_API __GR_ATTR_EXPORT
#else
#define GPUFEC_GR_API __GR_ATTR_IMPORT
#endif

#endif

#ifndef QUIRE_CARCHIVE_SHIM_H
#define QUIRE_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif

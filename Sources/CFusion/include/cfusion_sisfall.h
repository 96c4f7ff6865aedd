// SisFall text parsing (filled in by the datasets work).
#ifndef CFUSION_SISFALL_H
#define CFUSION_SISFALL_H
#endif

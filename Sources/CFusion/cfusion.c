#include "CFusion.h"

// work_group_broadcast with 1, 2 and 3 local ids: int, uint, long, ulong, float.
#include "corpus.h"

CORPUS_WORK_GROUP_BROADCAST(int)
CORPUS_WORK_GROUP_BROADCAST(uint)
CORPUS_WORK_GROUP_BROADCAST(long)
CORPUS_WORK_GROUP_BROADCAST(ulong)
CORPUS_WORK_GROUP_BROADCAST(float)

// sub_group_broadcast: int, uint, long, ulong, float.
#include "corpus.h"

CORPUS_SUB_GROUP_BROADCAST(int)
CORPUS_SUB_GROUP_BROADCAST(uint)
CORPUS_SUB_GROUP_BROADCAST(long)
CORPUS_SUB_GROUP_BROADCAST(ulong)
CORPUS_SUB_GROUP_BROADCAST(float)

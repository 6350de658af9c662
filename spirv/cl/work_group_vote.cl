// work_group_all and work_group_any on int predicates.
#include "corpus.h"

CORPUS_UNARY(wg_all, int, work_group_all)
CORPUS_UNARY(wg_any, int, work_group_any)

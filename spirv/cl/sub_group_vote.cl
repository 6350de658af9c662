// sub_group_all and sub_group_any on int predicates.
#include "corpus.h"

CORPUS_UNARY(sg_all, int, sub_group_all)
CORPUS_UNARY(sg_any, int, sub_group_any)

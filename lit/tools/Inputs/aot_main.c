// A C program calling functions compiled ahead of time by `fuse-opt --emit-object`
// through MLIR's C interface: a ranked memref argument or result is a strided
// descriptor { allocated, aligned, offset, sizes[rank], strides[rank] }; results come
// back through a pointer passed first.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { double *allocated, *aligned; int64_t offset, size, stride; } Vector;
typedef struct { double *allocated, *aligned; int64_t offset; } Scalar;

void _mlir_ciface_dot(Scalar *result, Vector *xs, Vector *ys);
void _mlir_ciface_triad(Vector *result, Vector *bs, Vector *cs);

int main(void) {
  enum { N = 1000 };
  double *b = malloc(N * sizeof(double)), *c = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) { b[i] = i; c[i] = 2.0; }
  Vector bs = {b, b, 0, N, 1}, cs = {c, c, 0, N, 1};
  Scalar dot;
  _mlir_ciface_dot(&dot, &bs, &cs);
  printf("dot = %.1f\n", dot.aligned[dot.offset]);
  Vector a;
  _mlir_ciface_triad(&a, &bs, &cs);
  printf("triad: size %ld, a[0] = %.1f, a[999] = %.1f\n", (long)a.size, a.aligned[0], a.aligned[999 * a.stride]);
  free(dot.allocated);
  free(a.allocated);
  free(b);
  free(c);
  return 0;
}

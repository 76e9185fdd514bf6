// No allocation in the contact layer's kernels: Lemke's method, float and double, with a workspace
// sized once for a larger problem than it solves (the number of contacts changes from step to step).
#include "no_alloc/no_alloc_support.hpp"

#include "treedyn/contact/lemke.hpp"

namespace {

template <class T>
void require_lemke_allocation_free() {
  using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  LemkeWorkspace<T> ws(12);
  test::Rng rng(9);
  for (const int n : {12, 7, 1}) {
    const MatrixX A = rng.matrix<T>(n, n);
    const MatrixX M = A.transpose() * A + MatrixX::Identity(n, n);
    const VectorX q = rng.matrix<T>(n, 1);
    for (int call = 0; call < 2; ++call) {
      INFO("n = " << n << (call == 0 ? ", first call" : ", steady state"));
      CHECK(allocations_in([&] { (void)lemke(ws, M, q); }) == 0);
      REQUIRE(ws.status().ok());
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("lemke does not allocate", "[no_alloc]", float, double) {
  require_lemke_allocation_free<TestType>();
}

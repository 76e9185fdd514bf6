// No allocation in the sparse factorization kernels, dynamic and fixed size.
#include "no_alloc/no_alloc_support.hpp"

namespace {

/// Runs every kernel on (A0, lambda) twice (first call, steady state) inside the guard. All inputs,
/// outputs and workspaces are built before.
template <class Matrix, class Vector, class RhsMatrix, class Parents>
void require_kernels_allocation_free(const Matrix& A0, const Parents& lambda, const RhsMatrix& B0) {
  Matrix A = A0, F_ltdl = A0, F_ltl = A0;
  REQUIRE(ltdl(F_ltdl, lambda).ok());
  REQUIRE(ltl(F_ltl, lambda).ok());
  const AncestorPattern pattern(lambda);
  Vector packed(pattern.nonzeros());
  Vector x(A0.rows()), y(A0.rows());
  RhsMatrix X = B0, Y = B0;
  const Vector b = B0.col(0);
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    CHECK(allocations_in([&] { A = A0; (void)ltdl(A, lambda); }) == 0);
    CHECK(allocations_in([&] { A = A0; (void)ltl(A, lambda); }) == 0);
    CHECK(allocations_in([&] { A = A0; (void)ltdl(A.block(0, 0, A.rows(), A.cols()), lambda); }) == 0);
    CHECK(allocations_in([&] {
            pattern.pack(A0, packed);
            (void)ltdl_packed(packed, pattern);
            pattern.unpack(packed, A);
          }) == 0);
    CHECK(allocations_in([&] { x = b; ltdl_solve_packed(packed, pattern, x); }) == 0);
    CHECK(allocations_in([&] { X = B0; ltdl_solve_packed(packed, pattern, X); }) == 0);
    CHECK(allocations_in([&] {
            x = b;
            mul_l(F_ltl, lambda, x);
            mul_lt(F_ltl, lambda, x, y);
            solve_l(F_ltl, lambda, y);
            solve_lt(F_ltl, lambda, y);
            ltl_solve(F_ltl, lambda, x);
          }) == 0);
    CHECK(allocations_in([&] {
            x = b;
            mul_l_unit(F_ltdl, lambda, x);
            mul_lt_unit(F_ltdl, lambda, x, y);
            solve_l_unit(F_ltdl, lambda, y);
            solve_lt_unit(F_ltdl, lambda, y);
            ltdl_solve(F_ltdl, lambda, x);
            ltdl_solve(F_ltdl, lambda, X.col(1));
          }) == 0);
    CHECK(allocations_in([&] {
            X = B0;
            mul_l(F_ltl, lambda, X);
            mul_lt(F_ltl, lambda, X, Y);
            solve_l(F_ltl, lambda, Y);
            solve_lt(F_ltl, lambda, Y);
            ltl_solve(F_ltl, lambda, X);
            ltdl_solve(F_ltdl, lambda, Y);
          }) == 0);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("kernels never allocate: dynamic sizes", "[no_alloc][kernels]", float, double) {
  using T = TestType;
  using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  test::Rng rng(5);
  for (const std::vector<int>& lambda :
       {topologies::chain(40), topologies::binary_tree(6),
        expand_parent_array(topologies::humanoid(4, 6), topologies::humanoid_dofs(4, 6, 6)),
        topologies::random_tree(120, 9)}) {
    const MatrixX A0 = test::random_tree_spd<T>(lambda, rng);
    require_kernels_allocation_free<MatrixX, VectorX, MatrixX>(A0, lambda, rng.matrix<T>(static_cast<int>(lambda.size()), 3));
  }
}

TEMPLATE_TEST_CASE("kernels never allocate: fixed N = 30 humanoid, std::array parents", "[no_alloc][kernels]", float,
                   double) {
  using T = TestType;
  constexpr int N = 30;
  using Matrix = Eigen::Matrix<T, N, N>;
  using Vector = Eigen::Matrix<T, N, 1>;
  using Rhs = Eigen::Matrix<T, N, 3>;
  const std::vector<int> lambda_v =
      expand_parent_array(topologies::humanoid(4, 6), topologies::humanoid_dofs(4, 6, 6));
  std::array<int, N> lambda{};
  for (int i = 0; i < N; ++i) lambda[static_cast<std::size_t>(i)] = lambda_v[static_cast<std::size_t>(i)];
  test::Rng rng(6);
  const Matrix A0 = test::random_tree_spd<T>(lambda_v, rng);
  const Rhs B0 = rng.matrix<T>(N, 3);
  require_kernels_allocation_free<Matrix, Eigen::Matrix<T, Eigen::Dynamic, 1>, Rhs>(A0, lambda, B0);
  // With fixed sizes not even the vectors need the heap; only AncestorPattern (built once) does.
  Vector x = B0.col(0);
  Matrix F = A0;
  REQUIRE(ltdl(F, lambda).ok());
  CHECK(allocations_in([&] { ltdl_solve(F, lambda, x); }) == 0);
}

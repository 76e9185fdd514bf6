// No allocation in the contact layer's kernels: Lemke's method and the contact LCP, float and double, with
// workspaces sized once for larger problems than they solve (the number of contacts changes every step).
#include "no_alloc/no_alloc_support.hpp"

#include "treedyn/algorithms/forward_kinematics.hpp"
#include "treedyn/contact/contact_lcp.hpp"
#include "treedyn/collision/geometry.hpp"
#include "treedyn/robots/pendulum.hpp"
#include "treedyn/kernels/lemke.hpp"

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

template <class T>
void require_contact_lcp_allocation_free() {
  using MatrixX = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  ContactLcpWorkspace<T> ws(4, 6, 2);
  test::Rng rng(3);
  for (const int n_u : {4, 2}) {
    std::vector<Contact<T>> contacts(static_cast<std::size_t>(n_u));
    for (Contact<T>& c : contacts) c.friction_directions = 6;
    const MatrixX J = rng.matrix<T>(3 * n_u + 2, 3 * n_u + 5);
    const MatrixX G_all = J * J.transpose() + MatrixX::Identity(3 * n_u + 2, 3 * n_u + 2);
    const MatrixX G = G_all.topLeftCorner(3 * n_u, 3 * n_u);
    const MatrixX G_bu = G_all.bottomLeftCorner(2, 3 * n_u);
    const MatrixX G_bb = G_all.bottomRightCorner(2, 2);
    const VectorX v = rng.matrix<T>(3 * n_u, 1), v_b = rng.matrix<T>(2, 1);
    for (int call = 0; call < 2; ++call) {
      INFO("n_u = " << n_u << (call == 0 ? ", first call" : ", steady state"));
      CHECK(allocations_in([&] { (void)contact_lcp(ws, contacts, G, v); }) == 0);
      REQUIRE(ws.status().ok());
      CHECK(allocations_in([&] { (void)contact_lcp(ws, contacts, G, v, G_bu, G_bb, v_b); }) == 0);
      REQUIRE(ws.status().ok());
    }
  }
}

template <class T>
void require_detect_contacts_allocation_free() {
  const Model<T> model = robots::pendulum<T>(4);
  Data<T> data(model);
  std::vector<Shape<T>> shapes{Shape<T>::plane(world, Vector3<T>::Zero(), Vector3<T>::UnitY()),
                               Shape<T>::capsule(3, Vector3<T>::Zero(), Vector3<T>(T(0), T(-1), T(0)), T(0.5)),
                               Shape<T>::box(2, Vector3<T>::Zero(), Matrix3<T>::Identity(), Vector3<T>::Constant(T(0.2)))};
  for (int k = 0; k < 2; ++k) shapes.push_back(Shape<T>::sphere(k, Vector3<T>(T(0), T(-1), T(0)), T(1.5)));
  const CollisionGeometry<T> geometry(model, shapes);
  std::vector<Contact<T>> contacts;
  contacts.reserve(static_cast<std::size_t>(geometry.max_contacts()));
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q = Eigen::Matrix<T, Eigen::Dynamic, 1>::Constant(4, T(0.3));
  forward_kinematics(model, data, q);
  for (int call = 0; call < 2; ++call) {
    int found = 0;
    CHECK(allocations_in([&] { found = detect_contacts(model, data, geometry, contacts, T(100)); }) == 0);
    CHECK(found == geometry.max_contacts());  // the margin admits every feature
  }
}

}  // namespace

TEMPLATE_TEST_CASE("detect_contacts does not allocate", "[no_alloc]", float, double) {
  require_detect_contacts_allocation_free<TestType>();
}

TEMPLATE_TEST_CASE("contact_lcp does not allocate", "[no_alloc]", float, double) {
  require_contact_lcp_allocation_free<TestType>();
}

TEMPLATE_TEST_CASE("lemke does not allocate", "[no_alloc]", float, double) {
  require_lemke_allocation_free<TestType>();
}

// No allocation in the contact time step (contact_step.hpp: ABA, OSCM on retargeted frames, the LCPs of the
// collision and time-step phases, the impulse ABA, integrate, the drift correction) and in contact_metrics, with the
// workspace sized once for more contacts than a step has, with and without a bilateral constraint. One
// scalar per translation unit.
#include "no_alloc/no_alloc_support.hpp"
#include "support/scalars.hpp"

#include "treedyn/contact/contact_metrics.hpp"
#include "treedyn/contact/contact_step.hpp"

namespace {

template <class T>
void require_contact_step_allocation_free() {
  using VectorX = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  // two free cubes (half side a), a hinge between them, each resting on (or falling onto) the plane z = 0
  const T a = T(0.1);
  const RigidInertia<T> I =
      RigidInertia<T>::from_mass_com_inertia(T(1), Vector3<T>::Zero(), Matrix3<T>::Identity() * (T(2) / T(3) * a * a));
  ModelBuilder<T> b;
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), I);
  b.add_body(no_parent, Joint<T>::free_flyer(), Transform<T>::identity(), I);
  const Model<T> model = b.build();
  Data<T> data(model);
  BilateralConstraint<T> hinge;
  hinge.body_a = 0;
  hinge.frame_a.r = Vector3<T>(a, T(0), T(0));
  hinge.body_b = 1;
  hinge.frame_b.r = Vector3<T>(-a, T(0), T(0));
  hinge.rows = 0x3B;
  VectorX q = VectorX::Zero(14);
  q << T(0), T(0), a, T(0), T(0), T(0), T(1), T(2) * a, T(0), a, T(0), T(0), T(0), T(1);
  std::vector<Contact<T>> contacts;
  for (int body = 0; body < 2; ++body)
    for (const T x : {-a, a})
      for (const T y : {-a, a}) {
        Contact<T> c;
        c.body_a = body;
        c.point_a = Vector3<T>(x, y, -a);
        c.point_b = Vector3<T>(x + T(2 * body) * a, y, T(0));
        c.restitution = T(0.5);
        c.friction_directions = 6;
        c.id = static_cast<std::int64_t>(contacts.size());  // the exact cone's warm start matches them by id
        contacts.push_back(c);
      }
  std::vector<Contact<T>> four(contacts.begin(), contacts.begin() + 4), none;
  const VectorX tau = VectorX::Zero(12);
  VectorX resting = VectorX::Zero(12), falling = VectorX::Zero(12);
  falling(5) = falling(11) = T(-1);  // both cubes approach the plane at 1 m/s: collisions
  VectorX spinning = VectorX::Zero(12);  // the free joints' rigid-motion step with ω × v_O ≠ 0
  spinning << T(3), T(-2), T(1), T(0.5), T(0.2), T(0), T(-1), T(2), T(0.5), T(0.1), T(0.3), T(0);
  std::vector<Contact<T>> deep(four);  // 1 mm into the plane: the drift correction's LCP and impulse run
  for (Contact<T>& c : deep) c.distance = T(-1e-3);
  std::vector<Contact<T>> bad(four);
  bad[2].restitution = T(1.5);  // a bad contact value: the status path names it without allocating
  for (const bool bilateral : {false, true})
   for (const FrictionCone cone : {FrictionCone::pyramid, FrictionCone::exact})
    for (const bool warm : {true, false}) {
    ContactStepWorkspace<T, Dynamic> ws(model, 10, 6,
                                        bilateral ? std::vector<BilateralConstraint<T>>{hinge}
                                                  : std::vector<BilateralConstraint<T>>{});
    ws.friction_cone = cone;  // the exact cone: coulomb_gauss_seidel in every LCP of the step
    ws.warm_start = warm;     // warm: each step after the first starts from the last one's impulses (matched by id)
    for (const std::vector<Contact<T>>* list : {&contacts, &four, &none, &deep})
      for (const auto* v : {&resting, &falling, &spinning}) {
        INFO((bilateral ? "with" : "without") << " the hinge, " << list->size() << " contacts, "
                                              << (cone == FrictionCone::exact ? "exact cone" : "pyramid")
                                              << (v == &falling ? ", colliding" : ""));
        CHECK(allocations_in([&] { (void)contact_step(model, data, ws, q, *v, tau, *list, T(1e-3)); }) == 0);
        REQUIRE(ws.status().ok());
        CHECK(ws.correction_status().ok());
        CHECK(allocations_in([&] { (void)contact_metrics(ws, *list); }) == 0);
      }
    CHECK(allocations_in([&] { (void)contact_step(model, data, ws, q, resting, tau, bad, T(1e-3)); }) == 0);
    CHECK(ws.status().code == Status::Code::invalid_argument);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("contact_step does not allocate", "[no_alloc][contact]", TREEDYN_TEST_SCALARS) {
  require_contact_step_allocation_free<TestType>();
}

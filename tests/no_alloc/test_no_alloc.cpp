// placeholder: replaced by the no-allocation test below once the kernels land
int main() { return 0; }

#pragma once
// A vector that keeps up to two items inside itself and more on the heap: a term node's children
// and the free names of its facts (ast.hpp). [perf] Every node kind but a sum has at most two
// children, and most facts list one or two names: a heap vector for each was two allocations in
// three of pullback/adequacy (the node's block, its kids, its facts record and the record's names).
// Reads go through one pointer, to the inline slots or to the heap, as a vector's do: an inline
// buffer told apart from the heap by a test at every read cost more than the allocation saved.
// The pointer points into the object itself, so copies and moves set it again.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace adsem::pullback {

template <class T> class SmallList {
public:
  static constexpr std::size_t inline_room = 2;

  SmallList() = default;
  SmallList(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  // From a vector built elsewhere (the parser's sums, the rule patterns), its items moved.
  SmallList(std::vector<T>&& items) { // NOLINT(google-explicit-constructor): a vector's stand-in
    reserve(items.size());
    for (T& t : items)
      data_[size_++] = std::move(t);
  }
  SmallList(const std::vector<T>& items) { // NOLINT(google-explicit-constructor)
    assign(items.begin(), items.end());
  }
  // One or two items moved in (a node's kids, made in place: ast.cpp).
  SmallList(std::in_place_t, T a) : size_(1) { slots_[0] = std::move(a); }
  SmallList(std::in_place_t, T a, T b) : size_(2) {
    slots_[0] = std::move(a);
    slots_[1] = std::move(b);
  }
  SmallList(const SmallList& other) { assign(other.begin(), other.end()); }
  SmallList(SmallList&& other) noexcept { take(std::move(other)); }
  SmallList& operator=(const SmallList& other) {
    if (this != &other) {
      clear();
      assign(other.begin(), other.end());
    }
    return *this;
  }
  SmallList& operator=(SmallList&& other) noexcept {
    if (this != &other) {
      release();
      take(std::move(other));
    }
    return *this;
  }
  // The inline slots destroy their own items; a heap buffer is deleted with its items.
  ~SmallList() { release_heap(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("SmallList::at");
    return data_[i];
  }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

  // Room for n items (moved to the heap past the inline room).
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    auto grown = std::make_unique<T[]>(n);
    std::move(begin(), end(), grown.get());
    release_heap();
    data_ = grown.release();
    capacity_ = static_cast<std::uint32_t>(n);
  }
  void push_back(T t) {
    if (size_ == capacity_) reserve(2 * std::size_t{capacity_});
    data_[size_++] = std::move(t);
  }
  // Puts t before the item at `at` (a position of this list).
  void insert(const T* at, T t) {
    const auto i = static_cast<std::size_t>(at - data_);
    if (size_ == capacity_) reserve(2 * std::size_t{capacity_});
    for (std::size_t j = size_; j > i; --j)
      data_[j] = std::move(data_[j - 1]);
    data_[i] = std::move(t);
    ++size_;
  }
  template <class It> void assign(It first, It last) {
    clear();
    reserve(static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first)
      data_[size_++] = *first;
  }
  // Drops the items (the storage is kept).
  void clear() {
    for (std::size_t i = 0; i < size_; ++i)
      data_[i] = T();
    size_ = 0;
  }

private:
  bool on_heap() const { return data_ != slots_.data(); }
  void release_heap() {
    if (on_heap()) delete[] data_;
  }
  void release() {
    clear();
    release_heap();
    data_ = slots_.data();
    capacity_ = inline_room;
  }
  // Takes other's items (its heap buffer, or its inline slots moved one by one); other is left
  // empty and inline. This object is empty and inline.
  void take(SmallList&& other) noexcept {
    if (other.on_heap()) {
      data_ = other.data_;
      capacity_ = other.capacity_;
      other.data_ = other.slots_.data();
      other.capacity_ = inline_room;
    } else {
      for (std::size_t i = 0; i < other.size_; ++i)
        slots_[i] = std::move(other.slots_[i]);
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  std::array<T, inline_room> slots_ = {}; // first: data_ points at it
  T* data_ = slots_.data();
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = inline_room;
};

} // namespace adsem::pullback
